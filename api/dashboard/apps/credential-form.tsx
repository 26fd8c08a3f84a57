// The fields of a credential upload form, per kind: the setup page and the signed credential-upload link page both
// render them and post multipart/form-data (api/dashboard/apps/credential-upload.ts reads it under its limits).
import type { ComponentChildren } from 'preact';

function CredentialFields({ platform, idPrefix = platform }: { platform: string; idPrefix?: string }) {
  const id = (name: string) => `${idPrefix}-${name}`;
  if (platform === 'ios') {
    return (
      <>
        <label for={id('file')}>App Store Connect key (.p8)</label>
        <input id={id('file')} type="file" name="file" accept=".p8" required />
        <label for={id('key-id')}>Key id</label>
        <input id={id('key-id')} name="key_id" required maxlength={10} />
        <label for={id('issuer')}>Issuer id</label>
        <input id={id('issuer')} name="issuer_id" required />
        <label for={id('bundle')}>Bundle id</label>
        <input id={id('bundle')} name="bundle_id" required />
        <label for={id('env')}>Environment</label>
        <select id={id('env')} name="environment">
          <option>sandbox</option>
          <option>production</option>
        </select>
      </>
    );
  }
  if (platform === 'android') {
    return (
      <>
        <label for={id('file')}>Service account key (.json)</label>
        <input id={id('file')} type="file" name="file" accept=".json,application/json" required />
        <label for={id('package')}>Package name</label>
        <input id={id('package')} name="package_name" required />
        <label for={id('push')}>Pub/Sub push service account (optional: for real-time notifications)</label>
        <input id={id('push')} type="email" name="pubsub_service_account" autocomplete="off" />
      </>
    );
  }
  return (
    <>
      <label for={id('key')}>Secret API key (sk_...)</label>
      <input id={id('key')} type="password" name="secret_api_key" autocomplete="off" required />
    </>
  );
}

/** A complete upload form for one kind. `hidden` adds fields such as the CSRF token and `return_to`. */
export function CredentialForm({ action, platform, hidden }: { action: string; platform: string; hidden?: ComponentChildren }) {
  return (
    <form method="post" action={action} enctype="multipart/form-data">
      {hidden}
      <input type="hidden" name="platform" value={platform} />
      <CredentialFields platform={platform} />
      <button type="submit">Upload {platform} credential</button>
    </form>
  );
}
