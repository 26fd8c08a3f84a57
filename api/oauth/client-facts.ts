// What the human is shown about an OAuth client before granting it anything, as plain facts a page prints
// (api/dashboard/agents/consent.tsx, and provider.tsx's error page): who the client says it is and whether anyone vouched
// for that (a dynamically registered client chose its own name: "unverified"; a client identified by a Client ID
// Metadata Document is known by the domain that serves the document), where the browser goes after approval
// (the redirect's scheme and host), and, when a metadata document was refused, why: our address policy (private
// and special-use addresses are never fetched) or the fetch itself failing, or a document we could not accept.
import { errors } from 'oidc-provider';
import { redirectKind, type RedirectKind } from './redirect-policy.js';

export interface RedirectFacts {
  scheme: string;
  /** Host (with port) of the redirect; empty for a private-use URI without one (`com.example.app:/cb`). */
  host: string;
  kind: RedirectKind;
  /** One sentence on where that is. */
  where: string;
}

export interface ClientFacts {
  /** The name the client gave itself (or its client_id when it gave none). */
  name: string;
  clientId: string;
  source: 'registered' | 'metadata-document';
  /** False for a dynamically registered client: nobody checked the name it chose. */
  verified: boolean;
  /** The domain serving the client's metadata document (metadata-document clients only). */
  metadataDomain?: string;
  applicationType: 'native' | 'web';
  redirect?: RedirectFacts;
}

function redirectFacts(uri: unknown): RedirectFacts | undefined {
  const url = typeof uri === 'string' ? URL.parse(uri) : null;
  if (!url) return undefined;
  const kind = redirectKind(url.href);
  const scheme = url.protocol.slice(0, -1);
  const where =
    kind === 'loopback'
      ? 'a program on this computer (loopback address)'
      : kind === 'private-use'
        ? `the app on this device that opens ${scheme}: links`
        : `the website ${url.hostname}`;
  return { scheme, host: url.host, kind, where };
}

interface ClientLike {
  clientId: string;
  clientName?: string;
  applicationType?: string;
  clientIdMetadataDocument?: boolean;
}

export function clientFacts(client: ClientLike | undefined, clientId: string, redirectUri: unknown): ClientFacts {
  const byDocument = client?.clientIdMetadataDocument === true;
  return {
    name: client?.clientName ?? clientId,
    clientId,
    source: byDocument ? 'metadata-document' : 'registered',
    verified: byDocument,
    ...(byDocument ? { metadataDomain: URL.parse(clientId)?.hostname ?? clientId } : {}),
    applicationType: client?.applicationType === 'native' ? 'native' : 'web',
    redirect: redirectFacts(redirectUri),
  };
}

export interface MetadataRefusal {
  domain: string;
  reason: 'address_policy' | 'fetch_failure' | 'invalid_document';
  explanation: string;
}

type ProviderError = Partial<errors.OIDCProviderError> & { cause?: unknown };

function causes(err: unknown): string[] {
  const out: string[] = [];
  for (let e = err, i = 0; e instanceof Error && i < 6; e = (e as ProviderError).cause, i += 1) out.push(e.message);
  return out;
}

/** Why the metadata document behind an https client_id was refused; undefined when the error is something else. */
export function metadataRefusal(clientId: unknown, err: unknown): MetadataRefusal | undefined {
  const url = typeof clientId === 'string' && clientId.startsWith('https://') ? URL.parse(clientId) : null;
  if (!url || !(err instanceof Error)) return undefined;
  const e = err as ProviderError;
  const domain = url.hostname;
  const description = e.error_description ?? '';
  if (description === 'client_id metadata document fetch not allowed' || causes(err).some((m) => m.includes('special-use IP address'))) {
    return {
      domain,
      reason: 'address_policy',
      explanation: `${domain} is a private or special-use network address, which this server never fetches client metadata documents from.`,
    };
  }
  if (description === 'client_id metadata document fetch failed') {
    return {
      domain,
      reason: 'fetch_failure',
      explanation: `Fetching the client's metadata document from ${domain} failed (${e.error_detail ?? 'no answer'}).`,
    };
  }
  // The document's own metadata failed validation (its redirect URIs, its auth method, a client_id mismatch).
  if (err instanceof errors.InvalidClientMetadata) {
    return {
      domain,
      reason: 'invalid_document',
      explanation: `The client's metadata document on ${domain} was fetched but refused: ${description}.`,
    };
  }
  return undefined;
}
