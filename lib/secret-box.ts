// Secrets at rest (store credentials, the subscription provider's API key): AES-256-GCM under SVC_MASTER_KEY, a
// fresh 96-bit IV per value, the tag checked on every read. The key version lets the master key rotate.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface Sealed {
  ciphertext: Buffer;
  iv: Buffer;
  authTag: Buffer;
  keyVersion: number;
}

export class SecretBox {
  private readonly key: Buffer;

  constructor(
    masterKey: string,
    readonly keyVersion = 1,
  ) {
    const key = /^[0-9a-f]{64}$/i.test(masterKey) ? Buffer.from(masterKey, 'hex') : Buffer.from(masterKey, 'base64');
    if (key.length !== 32) throw new Error('SVC_MASTER_KEY must be 32 bytes, as base64 or 64 hex characters');
    this.key = key;
  }

  seal(plaintext: string, associatedData = ''): Sealed {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(associatedData));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { ciphertext, iv, authTag: cipher.getAuthTag(), keyVersion: this.keyVersion };
  }

  /** Throws when the value was tampered with, sealed under another key, or for other associated data. */
  open(sealed: Omit<Sealed, 'keyVersion'>, associatedData = ''): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.iv);
    decipher.setAAD(Buffer.from(associatedData));
    decipher.setAuthTag(sealed.authTag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
  }
}
