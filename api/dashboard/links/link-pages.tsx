// The dashboard pages behind the agent's signed links (lib/signed-links.ts): GET /dashboard/links/{purpose} checks
// signature, purpose, expiry and single use before showing anything; a bad link gets a clear refusal page (401
// tampered or wrong purpose, 410 expired or used). The asset-upload URL takes its files by POST (asset-link.tsx).
// The credential-upload URL also takes POST with JSON (CONTRACT.md "Store credential upload"; a third kind,
// `{"platform": "subprovider", "secret_api_key": "sk_..."}`, holds the subscription provider's key for the webhook
// autowire): the credential is stored encrypted (store_credentials, AES-256-GCM) and the link is spent; the answer
// never echoes the secret.
import { storeCredential } from '../../../actions/store-credentials.js';
import { bad, CREDENTIAL_PARSERS, isCredentialPlatform } from '../../../lib/credential-input.js';
import { AppError, BadRequestError, UnavailableError, ValidationError } from '../../../errors/http-errors.js';
import type { LinkPurpose } from '../../../lib/signed-links.js';
import type { AppContext } from '../../context.js';
import { NOT_JSON } from '../../middleware/json-body.js';
import { sendPage } from '../../send-page.js';
import { AssetLinkForm } from '../assets/asset-link.js';
import { LINK_USED } from '../../../actions/signed-links.js';
import { checkLink, linkApp, refuse } from './link-check.js';
import { CredentialForm } from '../apps/credential-form.js';
import { uploadBody } from '../apps/credential-upload.js';
import { isFormPost } from '../../view-kit/confirm.js';
import { LocalTime } from '../../view-kit/ui.js';

const TITLES: Record<LinkPurpose, string> = {
  'wallet-topup': 'Top up your wallet',
  'credential-upload': 'Upload store credentials',
  'asset-upload': 'Upload marketing assets',
};

export async function showLinkPage(ctx: AppContext): Promise<void> {
  const checked = await checkLink(ctx);
  if (!checked.ok) return refuse(ctx, checked.status, checked.message);
  const { purpose, org, app, exp, extra } = checked.claims;
  sendPage(ctx, 200, {
    title: TITLES[purpose],
    lang: 'en',
    formAction: "'self'",
    body: (
      <>
        <h1>{TITLES[purpose]}</h1>
        <p class="muted">
          Organization {org}
          {app ? `, app ${app}` : null}
        </p>
        {extra?.amount_usd ? <p>Suggested amount: ${extra.amount_usd}</p> : null}
        {extra?.platform ? <p>Platform: {extra.platform}</p> : null}
        {extra?.platform === 'subprovider' ? (
          <p>
            Paste the subscription provider's secret API key (sk_..., API v2, with write access to the project's integrations). The service
            uses it to wire its webhook; it is stored encrypted and never shown again.
          </p>
        ) : null}
        <p>
          This link is valid until <LocalTime at={exp * 1000} /> and works once.
        </p>
        {/* The human uploads right here (multipart, the same limits as the setup page); one form per kind the link allows. */}
        {purpose === 'credential-upload'
          ? (extra?.platform ? [extra.platform] : ['ios', 'android']).map((p) => <CredentialForm action={ctx.originalUrl} platform={p} />)
          : null}
        {purpose === 'asset-upload' ? <AssetLinkForm action={ctx.originalUrl} maxBytes={ctx.deps.config.ASSET_MAX_BYTES} /> : null}
      </>
    ),
  });
}

/** A form post from the link page answers a page (success or the refusal with its status); JSON callers get JSON. */
export async function uploadCredential(ctx: AppContext): Promise<void> {
  if (!isFormPost(ctx)) return storeFromLink(ctx);
  try {
    await storeFromLink(ctx);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const detail = Array.isArray(err.detail)
      ? (err.detail as { loc: (string | number)[]; msg: string }[]).map((p) => `${String(p.loc.at(-1))}: ${p.msg}`).join('; ')
      : String(err.detail);
    return refuse(ctx, err.status, `${detail} Go back to fix it; the link still works unless it says otherwise.`);
  }
  const body = ctx.body as { platform: string };
  sendPage(ctx, 200, {
    title: 'Credential stored',
    lang: 'en',
    body: (
      <>
        <h1>Credential stored</h1>
        <p>
          The {body.platform} credential is stored encrypted and will not be shown again. Your agent (or the setup page) can now run the
          green-check. You can close this page.
        </p>
      </>
    ),
  });
}

async function storeFromLink(ctx: AppContext): Promise<void> {
  if (ctx.params.purpose !== 'credential-upload') throw new AppError(405, 'Only the credential-upload and asset-upload links take POST.');
  const checked = await checkLink(ctx);
  if (!checked.ok) throw new AppError(checked.status, checked.message);
  const { claims } = checked;
  const box = ctx.secretBox;
  if (!box) throw new UnavailableError('Credential storage needs SVC_MASTER_KEY to be configured.');
  let b: Record<string, unknown>;
  if (ctx.is('multipart/form-data')) {
    b = await uploadBody(ctx);
  } else {
    if (ctx.state.bodyInvalid) throw new BadRequestError(NOT_JSON);
    const body = ctx.state.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BadRequestError('Send a JSON object.');
    b = body as Record<string, unknown>;
  }
  if (!isCredentialPlatform(b.platform)) throw new ValidationError([bad('platform', "One of 'ios', 'android', 'subprovider'")]);
  if (claims.extra?.platform && claims.extra.platform !== b.platform) {
    throw new ValidationError([bad('platform', `This link is for ${claims.extra.platform} credentials`)]);
  }
  const parsed = CREDENTIAL_PARSERS[b.platform](b);
  const app = await linkApp(ctx, claims);
  const stored = await storeCredential({ db: ctx.deps.db, box }, { appId: app.id, credential: parsed, link: claims });
  if (!stored) throw new AppError(410, LINK_USED);
  ctx.body = {
    stored: true,
    app_id: app.id,
    platform: parsed.platform,
    ...(parsed.platform === 'ios' ? { key_id: parsed.meta.key_id } : {}),
  };
}
