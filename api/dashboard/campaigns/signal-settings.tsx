// The campaign page's fraud-signal settings (docs/fraud-signals.md "Review queue"): per signal off, flag or hold, or
// the signal's default (shown: self-referral holds, the others flag). POST /dashboard/campaigns/{id}/fraud-signals
// saves campaigns.fraud_signal_actions through actions/campaigns.ts (audited there); a choice that is none of them is
// refused with 422, the page re-rendered with the message beside that field in words and the choices kept. Owners
// and admins change them (as they decide reviews); members see them (the post answers them 403).
import { setFraudSignalActions, SIGNAL_DEFAULT } from '../../../actions/campaigns.js';
import { findCampaign } from '../../../db/campaigns.js';
import { ValidationError } from '../../../errors/http-errors.js';
import {
  DEFAULT_SIGNAL_ACTION,
  FRAUD_SIGNALS,
  SIGNAL_ACTION_WORDS,
  SIGNAL_ACTIONS,
  SIGNAL_MEANINGS,
  SIGNAL_NAMES,
  signalActionsOf,
  type FraudSignalName,
} from '../../../lib/fraud-signals/index.js';
import type { AppContext } from '../../context.js';
import { ProblemSummary } from '../../view-kit/form-errors.js';
import { FieldError } from '../../view-kit/ui.js';
import { setFlash } from '../../view-kit/flash.js';
import { canManage, dashboardPage, OrgLink, orgLink, PostForm, type SignedIn } from '../../view-kit/layout.js';
import { signedIn, visibleOrNotFoundPage } from '../signed-in.js';

/** The form as posted when its save was refused: the choices and a message per signal. */
export interface SignalsForm {
  choices: Record<string, string>;
  errors: Partial<Record<FraudSignalName, string>>;
}

const RULE = 'Choose the default, off, flag or hold.';

export function SignalSettingsSection({
  s,
  campaignId,
  stored,
  form,
}: {
  s: SignedIn;
  campaignId: string;
  stored: unknown;
  form?: SignalsForm;
}) {
  const saved = signalActionsOf(stored);
  const manage = canManage(s);
  const lines = form ? FRAUD_SIGNALS.filter((x) => form.errors[x]).map((x) => `${SIGNAL_NAMES[x]}: ${form.errors[x]}`) : [];
  return (
    <>
      <h2 id="fraud-signals">Fraud signals</h2>
      <p class="muted">
        What a raised signal does to the commission of a purchase in this campaign: <strong>hold</strong> keeps it unpaid until someone
        approves it on the{' '}
        <OrgLink s={s} to="/dashboard/reviews">
          Reviews
        </OrgLink>{' '}
        page, <strong>flag</strong> lists it there and pays it as usual, <strong>off</strong> does not check the signal. Weak evidence (many
        installs over a whole network) only flags. New settings apply to purchases from then on.
      </p>
      <PostForm s={s} action={orgLink(s, `/dashboard/campaigns/${campaignId}/fraud-signals`)} id="signal-settings">
        <ProblemSummary lines={lines} />
        {FRAUD_SIGNALS.map((signal, i) => {
          const id = `signal-${signal}`;
          const error = form?.errors[signal];
          const chosen = form ? form.choices[signal] : (saved[signal] ?? SIGNAL_DEFAULT);
          const def = DEFAULT_SIGNAL_ACTION[signal];
          return (
            <div class="signal-setting" data-signal={signal}>
              <label for={id}>{SIGNAL_NAMES[signal]}</label>
              <p class="muted" id={`${id}-hint`}>
                {SIGNAL_MEANINGS[signal]}
              </p>
              <select
                id={id}
                name={signal}
                disabled={!manage}
                aria-invalid={error ? 'true' : undefined}
                aria-describedby={[`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ')}
                autofocus={error && FRAUD_SIGNALS.findIndex((x) => form?.errors[x]) === i ? true : undefined}
              >
                <option value={SIGNAL_DEFAULT} selected={chosen === SIGNAL_DEFAULT}>
                  Default ({SIGNAL_ACTION_WORDS[def]})
                </option>
                {SIGNAL_ACTIONS.map((a) => (
                  <option value={a} selected={chosen === a}>
                    {SIGNAL_ACTION_WORDS[a][0]!.toUpperCase() + SIGNAL_ACTION_WORDS[a].slice(1)}
                  </option>
                ))}
              </select>
              <FieldError id={id} error={error} />
            </div>
          );
        })}
        {manage ? <button type="submit">Save fraud signal settings</button> : <p class="muted">Owners and admins change these settings.</p>}
      </PostForm>
    </>
  );
}

type RenderDetail = (ctx: AppContext, s: SignedIn, status: number, form: SignalsForm) => Promise<void>;

/** POST /dashboard/campaigns/{id}/fraud-signals; `render` re-renders the campaign page with the refused form. */
export function saveSignalActionsFrom(render: RenderDetail) {
  return async (ctx: AppContext): Promise<void> => {
    const s = await signedIn(ctx);
    if (!s) return;
    const campaign = visibleOrNotFoundPage(ctx, s, await findCampaign(ctx.deps.db, ctx.params.campaign_id as string), 'Campaign');
    if (!campaign) return;
    if (!canManage(s))
      return dashboardPage(
        ctx,
        s,
        403,
        'Fraud signals',
        <p class="error" role="alert">
          Only owners and admins change a campaign's fraud signal settings.
        </p>,
      );
    const body = (ctx.state.body ?? {}) as Record<string, unknown>;
    const choices = Object.fromEntries(FRAUD_SIGNALS.map((x) => [x, typeof body[x] === 'string' ? body[x] : SIGNAL_DEFAULT]));
    try {
      await setFraudSignalActions(ctx.deps, {
        campaign,
        choices: Object.fromEntries(FRAUD_SIGNALS.map((x) => [x, body[x]])),
        actor: { actorType: 'user', actorId: s.userId, requestId: ctx.state.requestId, ip: ctx.state.clientIp },
      });
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      const errors = Object.fromEntries(err.problems.map((p) => [String(p.loc.at(-1)), RULE]));
      return render(ctx, s, 422, { choices, errors });
    }
    setFlash(ctx, { flash: { tone: 'ok', text: 'Fraud signal settings saved: they apply to purchases from now on.' } });
    ctx.status = 303;
    ctx.redirect(`${orgLink(s, `/dashboard/campaigns/${campaign.id}`)}#fraud-signals`);
  };
}
