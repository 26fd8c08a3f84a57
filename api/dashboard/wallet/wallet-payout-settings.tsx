// The wallet page's payout settings (docs/wallet-and-payouts.md "Schedules", "Minimum payout"): owners set the
// organization's minimum payout (USD) and the period of its payout schedule (hours; empty: on demand only). Saving
// stores them (actions/payout-settings.ts) and brings the Temporal schedule in line at once; every worker start does the
// same. Admins and members see them; only owners change them (403). Session + CSRF; no agent route reaches it.
import type { VNode } from 'preact';
import { savePayoutSettings } from '../../../actions/payout-settings.js';
import { getPayoutSettings, type PayoutSettings } from '../../../db/payout-settings.js';
import { formatUsd } from '../../../lib/money.js';
import { reconcilePayoutSchedule } from '../../../workflow-clients/payout-runs.js';
import type { AppContext } from '../../context.js';
import { dashboardPage, orgLink, PostForm, type SignedIn } from '../../view-kit/layout.js';
import { signedIn } from '../signed-in.js';

type Typed = { minimum_usd: string; period_hours: string };
type Problems = Partial<Record<keyof Typed, string>>;

const usdText = (micros: number) => (micros / 1_000_000).toFixed(2);

function SettingsForm({ s, typed, problems }: { s: SignedIn; typed: Typed; problems: Problems }) {
  return (
    <PostForm s={s} action={orgLink(s, '/dashboard/wallet/payouts/settings')}>
      <p>
        <label>
          Minimum payout (USD) <input name="minimum_usd" value={typed.minimum_usd} inputMode="decimal" />
        </label>
        {problems.minimum_usd ? (
          <span class="error" role="alert" id="minimum_usd-error">
            {' '}
            {problems.minimum_usd}
          </span>
        ) : null}
      </p>
      <p>
        <label>
          Run payouts every (hours; empty: only on demand) <input name="period_hours" value={typed.period_hours} inputMode="numeric" />
        </label>
        {problems.period_hours ? (
          <span class="error" role="alert" id="period_hours-error">
            {' '}
            {problems.period_hours}
          </span>
        ) : null}
      </p>
      <button type="submit">Save payout settings</button>
    </PostForm>
  );
}

/** The wallet page's section. */
export async function payoutSettingsSection(ctx: AppContext, s: SignedIn): Promise<VNode> {
  const settings = await getPayoutSettings(ctx.deps.db, s.orgId!);
  const cadence = settings.periodHours ? `a run every ${settings.periodHours} hour(s)` : 'runs on demand only';
  const summary = `Minimum payout ${formatUsd(settings.minimumPayoutMicros)}; ${cadence}.`;
  return (
    <>
      <h3 id="payout-settings">Payout settings</h3>
      <p id="payout-settings-summary">{summary} Creators whose net is below the minimum are held over to a later run.</p>
      {s.role === 'owner' ? (
        <SettingsForm
          s={s}
          typed={{
            minimum_usd: usdText(settings.minimumPayoutMicros),
            period_hours: settings.periodHours ? String(settings.periodHours) : '',
          }}
          problems={{}}
        />
      ) : (
        <p class="muted">Owners change the payout settings.</p>
      )}
    </>
  );
}

function parse(typed: Typed): { settings?: PayoutSettings; problems: Problems } {
  const problems: Problems = {};
  const usd = typed.minimum_usd.trim();
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(usd)) problems.minimum_usd = 'Enter an amount in USD from 0 to 9,999,999.99 with at most two decimals.';
  const hours = typed.period_hours.trim();
  if (hours !== '' && (!/^\d{1,4}$/.test(hours) || Number(hours) < 1 || Number(hours) > 8784))
    problems.period_hours = 'Enter whole hours from 1 to 8784, or leave it empty for on demand only.';
  if (Object.keys(problems).length > 0) return { problems };
  return {
    settings: { minimumPayoutMicros: Math.round(Number(usd) * 100) * 10_000, periodHours: hours === '' ? null : Number(hours) },
    problems,
  };
}

export async function saveSettings(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  if (!s.orgId || s.role !== 'owner') {
    return dashboardPage(
      ctx,
      s,
      403,
      'Payout settings',
      <p class="error" role="alert">
        Only owners change the payout settings.
      </p>,
    );
  }
  const body = (ctx.state.body ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
  const typed: Typed = { minimum_usd: text(body.minimum_usd), period_hours: text(body.period_hours) };
  const { settings, problems } = parse(typed);
  if (!settings) return dashboardPage(ctx, s, 422, 'Payout settings', <SettingsForm s={s} typed={typed} problems={problems} />);
  const schedules = {
    db: ctx.deps.db,
    client: ctx.deps.temporal,
    taskQueue: ctx.deps.config.TEMPORAL_TASK_QUEUE,
    catchupHours: ctx.deps.config.PAYOUT_SCHEDULE_CATCHUP_HOURS,
  };
  await savePayoutSettings(
    { db: ctx.deps.db, reconcileSchedule: (orgId) => reconcilePayoutSchedule(schedules, orgId) },
    { orgId: s.orgId, settings, by: { userId: s.userId, email: s.email, requestId: ctx.state.requestId, ip: ctx.state.clientIp } },
  );
  ctx.status = 303;
  ctx.redirect(orgLink(s, '/dashboard/wallet#payout-settings'));
}
