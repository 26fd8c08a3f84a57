// The fields of a credential upload form, per kind: the setup page and the signed credential-upload link page both
// render them and post multipart/form-data (api/dashboard/apps/credential-upload.ts reads it under its limits). On the
// setup page a refused upload comes back to its form (api/view-kit/form-reply.tsx) with each message under its field
// and what was typed kept; the file and the secret key are never kept, and the file field says to choose it again.
import type { ComponentChildren } from 'preact';
import { FILE_AGAIN, ProblemSummary, type FormWords } from '../../view-kit/form-errors.js';
import { Field, type FormState } from '../../view-kit/ui.js';

/** The upload form's words: labels, and each rule as a person reads it (lib/credential-input.ts checks them). */
export const CREDENTIAL_WORDS = {
  labels: {
    file: 'Key file',
    key_id: 'Key id',
    issuer_id: 'Issuer id',
    bundle_id: 'Bundle id',
    environment: 'Environment',
    app_apple_id: 'Apple id of the app',
    package_name: 'Package name',
    pubsub_service_account: 'Pub/Sub push service account',
    secret_api_key: 'Secret API key',
    platform: 'Platform',
  },
  rules: {
    key_id: 'Enter the 10-character key id from App Store Connect (capital letters and digits, such as ABCDE12345).',
    issuer_id: 'Enter the issuer id from App Store Connect (Users and Access, Integrations), such as 57246542-96fe-1a63-e053-0824d011072a.',
    bundle_id: 'Enter the bundle id, such as com.example.app.',
    environment: 'Pick sandbox or production.',
    app_apple_id:
      'Enter the numeric Apple id of the app (App Store Connect, App Information); production needs it to check server notifications.',
    package_name: 'Enter the package name, such as com.example.app.',
    pubsub_service_account:
      'Enter the service account email your Pub/Sub push subscription uses (name@project.iam.gserviceaccount.com), or leave it empty.',
    secret_api_key: 'Paste the secret API key from your subscription provider (it starts with sk_).',
  },
  fieldOf: { private_key: 'file', service_account_json: 'file' },
} satisfies FormWords;

const L = CREDENTIAL_WORDS.labels;

/** The file field, with its rule; after a refusal it says the file has to be chosen again. */
function FileField({ id, label, accept, state }: { id: string; label: string; accept: string; state?: FormState }) {
  return (
    <Field id={id} name="file" type="file" label={label} accept={accept} required state={state} hint={state ? FILE_AGAIN : undefined} />
  );
}

function CredentialFields({ platform, idPrefix = platform, state }: { platform: string; idPrefix?: string; state?: FormState }) {
  const id = (name: string) => `${idPrefix}-${name}`;
  if (platform === 'ios') {
    const env = state?.values?.environment;
    return (
      <>
        <FileField id={id('file')} label="App Store Connect key (.p8)" accept=".p8" state={state} />
        <Field id={id('key-id')} name="key_id" label={L.key_id} required maxlength={10} state={state} />
        <Field id={id('issuer')} name="issuer_id" label={L.issuer_id} required state={state} />
        <Field id={id('bundle')} name="bundle_id" label={L.bundle_id} required state={state} />
        <label for={id('env')}>{L.environment}</label>
        <select id={id('env')} name="environment">
          <option>sandbox</option>
          <option selected={env === 'production'}>production</option>
        </select>
        <Field
          id={id('apple-id')}
          name="app_apple_id"
          label={`${L.app_apple_id} (needed for production)`}
          inputmode="numeric"
          state={state}
        />
      </>
    );
  }
  if (platform === 'android') {
    return (
      <>
        <FileField id={id('file')} label="Service account key (.json)" accept=".json,application/json" state={state} />
        <Field id={id('package')} name="package_name" label={L.package_name} required state={state} />
        <Field
          id={id('push')}
          name="pubsub_service_account"
          type="email"
          label={`${L.pubsub_service_account} (optional: for real-time notifications)`}
          autocomplete="off"
          state={state}
        />
      </>
    );
  }
  return (
    <Field
      id={id('key')}
      name="secret_api_key"
      type="password"
      label={`${L.secret_api_key} (sk_...)`}
      autocomplete="off"
      required
      state={state}
    />
  );
}

/** The form id of a platform's upload form, so a refusal comes back to that form only. */
export const credentialFormId = (platform: string) => `credential-${platform}`;

/**
 * A complete upload form for one kind. `hidden` adds fields such as the CSRF token and `return_to`; `state` is a
 * refused upload's (the setup page's).
 */
export function CredentialForm({
  action,
  platform,
  hidden,
  state,
}: {
  action: string;
  platform: string;
  hidden?: ComponentChildren;
  state?: FormState;
}) {
  return (
    <form method="post" action={action} enctype="multipart/form-data">
      {hidden}
      <input type="hidden" name="platform" value={platform} />
      <input type="hidden" name="form_id" value={credentialFormId(platform)} />
      <ProblemSummary lines={state?.lines ?? []} verb="uploaded" />
      <CredentialFields platform={platform} state={state} />
      <button type="submit">Upload {platform} credential</button>
    </form>
  );
}
