// The campaign page's milestone bonus editor (docs/milestone-bonuses.md): the active rules as rows of fields, two
// blank rows to add one, a "remove" box per rule. POST /dashboard/campaigns/{id}/bonus-rules sends the whole list
// through the agent API's own update (`updateCampaign`, after `updateCampaignBody`'s schema), which replaces the rules
// by threshold. A refusal re-renders the page with 422, every message beside its field in words and what was typed
// kept; nothing is written. Success is audited (`dashboard.update_bonus_rules`) and answers 303 back to the rules.
import { recordAudit } from '../../../actions/audit.js';
import type { BonusRuleView } from '../../../db/bonus-rules.js';
import { findCampaign } from '../../../db/campaigns.js';
import { MAX_BONUS_RULES, MAX_BONUS_USD, normalizeBonusRules, type BonusRuleInput } from '../../../lib/bonus-rules.js';
import { ValidationError, type FieldProblem } from '../../../errors/http-errors.js';
import { assertValid } from '../../../lib/validation.js';
import { updateCampaign, updateCampaignBody } from '../../agent/campaign-writes.js';
import type { AppContext } from '../../context.js';
import { orgLink, PostForm, type SignedIn } from '../../view-kit/layout.js';
import { signedIn, visibleOrNotFoundPage } from '../signed-in.js';

/** A row of the editor as typed (strings), and the messages beside its fields. */
export interface RuleRow {
  threshold: string;
  bonus: string;
  name: string;
}
export interface RulesForm {
  rows: RuleRow[];
  errors: Record<number, Partial<Record<keyof RuleRow, string>>>;
  general?: string;
}

const BLANK_ROWS = 2;
const FIELD: Record<string, keyof RuleRow> = { threshold_conversions: 'threshold', bonus_usd: 'bonus', name: 'name' };
const WORDS: Record<keyof RuleRow, string> = {
  threshold: 'Enter a whole number of conversions from 1 to 1,000,000.',
  bonus: `Enter an amount in USD above 0 and at most ${MAX_BONUS_USD.toLocaleString('en-US')}, with at most 2 decimals (e.g. 25 or 12.50).`,
  name: 'Enter a name of 1 to 200 characters, or leave it empty for the default name.',
};

const rowsOf = (rules: readonly BonusRuleView[]): RuleRow[] =>
  rules.map((r) => ({ threshold: String(r.threshold_conversions), bonus: String(r.bonus_usd), name: r.name }));

export function BonusRulesSection({
  s,
  campaignId,
  rules,
  form,
}: {
  s: SignedIn;
  campaignId: string;
  rules: readonly BonusRuleView[];
  form?: RulesForm;
}) {
  const rows = form?.rows ?? rowsOf(rules);
  const shown = [
    ...rows,
    ...Array.from({ length: Math.max(0, Math.min(BLANK_ROWS, MAX_BONUS_RULES - rows.length)) }, () => ({
      threshold: '',
      bonus: '',
      name: '',
    })),
  ];
  const errs = form?.errors ?? {};
  const field = (i: number, key: keyof RuleRow, label: string, attrs: Record<string, string>) => {
    const id = `rule-${key}-${i}`;
    const error = errs[i]?.[key];
    return (
      <>
        <label for={id}>{label}</label>
        <input
          id={id}
          name={`${key}_${i}`}
          value={shown[i]![key]}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...attrs}
        />
        {error ? (
          <p id={`${id}-error`} class="error field-error">
            {error}
          </p>
        ) : null}
      </>
    );
  };
  return (
    <>
      <h2 id="bonus-rules">Milestone bonuses</h2>
      <p class="muted">
        A creator whose paid production conversions in this campaign reach a threshold earns its bonus once (you approve each award). Saving
        replaces the list by threshold; creators already past a saved threshold earn it at once. At most {MAX_BONUS_RULES} rules.
      </p>
      {form?.general ? (
        <p class="error" role="alert">
          {form.general}
        </p>
      ) : form ? (
        <p class="error" role="alert">
          Nothing was saved: correct the fields marked below.
        </p>
      ) : null}
      <PostForm s={s} action={orgLink(s, `/dashboard/campaigns/${campaignId}/bonus-rules`)}>
        {shown.map((_, i) => (
          <fieldset data-rule={i}>
            <legend>{i < rows.length ? `Rule ${i + 1}` : 'New rule (optional)'}</legend>
            {field(i, 'threshold', 'Conversions to reach', { inputmode: 'numeric' })}
            {field(i, 'bonus', 'Bonus (USD)', { inputmode: 'decimal' })}
            {field(i, 'name', 'Name (optional)', { maxlength: '200' })}
            {i < rows.length ? (
              <>
                <input type="checkbox" id={`rule-remove-${i}`} name={`remove_${i}`} value="1" />{' '}
                <label for={`rule-remove-${i}`}>Remove this rule</label>
              </>
            ) : null}
          </fieldset>
        ))}
        <button type="submit">Save bonus rules</button>
      </PostForm>
    </>
  );
}

/** The typed rows, blank and removed ones left out (the re-rendered form shows the list as it would be saved). */
function readRows(body: Record<string, unknown>): RuleRow[] {
  const text = (k: string) => {
    const v = body[k];
    return typeof v === 'string' ? v.trim() : '';
  };
  const rows: RuleRow[] = [];
  for (let i = 0; i < MAX_BONUS_RULES + BLANK_ROWS; i += 1) {
    const row = { threshold: text(`threshold_${i}`), bonus: text(`bonus_${i}`), name: text(`name_${i}`) };
    if (!row.threshold && !row.bonus && !row.name) continue;
    if (text(`remove_${i}`)) continue;
    rows.push(row);
  }
  return rows;
}

/** The list for the agent body; a field that is not a number stays text, so the schema names it. */
function toInput(rows: readonly RuleRow[]): unknown[] {
  const num = (v: string) => (/^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v === '' ? undefined : v);
  return rows.map((r) => ({ threshold_conversions: num(r.threshold), bonus_usd: num(r.bonus), ...(r.name ? { name: r.name } : {}) }));
}

const refusal = (err: unknown): FieldProblem[] => {
  if (err instanceof ValidationError) return err.problems;
  throw err;
};

/**
 * Every problem at once: the agent body's schema, then the rules' own checks (distinct thresholds, whole cents) on
 * the rows the schema accepted, their places mapped back to the form's rows. The save itself runs them again.
 */
function problemsOf(input: unknown[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  try {
    assertValid(updateCampaignBody, { bonus_rules: input });
  } catch (err) {
    problems.push(...refusal(err));
  }
  const bad = new Set(problems.map((p) => p.loc[2]));
  const fine = input.map((rule, index) => ({ rule: rule as BonusRuleInput, index })).filter((f) => !bad.has(f.index));
  try {
    normalizeBonusRules(fine.map((f) => f.rule));
  } catch (err) {
    problems.push(...refusal(err).map((p) => ({ ...p, loc: [p.loc[0]!, p.loc[1]!, fine[p.loc[2] as number]!.index, ...p.loc.slice(3)] })));
  }
  return problems;
}

/** The problems of a refusal as messages beside the rows' fields (in words), or one message for the list. */
function formOf(rows: RuleRow[], problems: FieldProblem[]): RulesForm {
  const errors: RulesForm['errors'] = {};
  let general: string | undefined;
  for (const p of problems) {
    const [, list, index, name] = p.loc;
    const key = typeof name === 'string' ? FIELD[name] : undefined;
    if (list === 'bonus_rules' && typeof index === 'number' && key) {
      const unique = p.type === 'unique' || p.type === 'multipleOf';
      errors[index] = { ...errors[index], [key]: unique ? `${p.msg[0]!.toUpperCase()}${p.msg.slice(1)}.` : WORDS[key] };
    } else if (list === 'bonus_rules' && typeof index === 'number') {
      errors[index] = { threshold: errors[index]?.threshold ?? WORDS.threshold, bonus: errors[index]?.bonus ?? WORDS.bonus };
    } else {
      general = `At most ${MAX_BONUS_RULES} rules.`;
    }
  }
  return { rows, errors, general };
}

type RenderDetail = (ctx: AppContext, s: SignedIn, status: number, form: RulesForm) => Promise<void>;

/** POST /dashboard/campaigns/{id}/bonus-rules; `render` re-renders the campaign page with the typed form. */
export function saveBonusRulesFrom(render: RenderDetail) {
  return async (ctx: AppContext): Promise<void> => {
    const s = await signedIn(ctx);
    if (!s) return;
    const campaign = visibleOrNotFoundPage(ctx, s, await findCampaign(ctx.deps.db, ctx.params.campaign_id as string), 'Campaign');
    if (!campaign) return;
    const rows = readRows((ctx.state.body ?? {}) as Record<string, unknown>);
    const input = toInput(rows);
    const problems = problemsOf(input);
    if (problems.length) return render(ctx, s, 422, formOf(rows, problems));
    try {
      const body = { bonus_rules: input as BonusRuleInput[] };
      await updateCampaign(ctx, campaign, body);
      await recordAudit(ctx.deps, {
        orgId: campaign.org_id,
        actorType: 'user',
        actorId: s.userId,
        action: 'dashboard.update_bonus_rules',
        targetType: 'campaign',
        targetId: campaign.id,
        details: { rules: body.bonus_rules.length },
        requestId: ctx.state.requestId,
        ip: ctx.state.clientIp,
      });
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      return render(ctx, s, 422, formOf(rows, err.problems));
    }
    ctx.status = 303;
    ctx.redirect(`${orgLink(s, `/dashboard/campaigns/${campaign.id}`)}#bonus-rules`);
  };
}
