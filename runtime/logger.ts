// Structured logs (pino). Anything that can carry a credential is redacted at the logger, so a careless log call
// cannot leak a secret.
import { pino, type DestinationStream, type Logger } from 'pino';

const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  '*.password',
  '*.secret',
  '*.token',
  '*.private_key',
  '*.service_account_json',
  '*.agent_key',
  '*.sdk_key',
  '*.webhook_secret',
  '*.api_key',
  '*.secret_api_key',
  '*.authorization_header',
  '*.SMTP_URL',
  '*.DATABASE_URL',
  '*.smtp_url',
  'password',
  'secret',
  'token',
  'private_key',
  'webhook_secret',
  'agent_key',
  'secret_api_key',
  'authorization_header',
];

export function createLogger(level: string, name = 'svc', destination?: DestinationStream): Logger {
  const options = { name, level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
