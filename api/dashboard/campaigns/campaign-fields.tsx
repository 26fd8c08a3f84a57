// A campaign's terms as form fields (the campaigns page's create and edit forms and the setup page's campaign step
// share them) and their words: the labels, and each rule as a person reads it, which a refused post shows under its
// field (api/view-kit/form-errors.tsx). The limits are the agent API's own (CAMPAIGN_FIELDS), never a second copy.
import { CAMPAIGN_FIELDS } from '../../agent/field-schemas.js';
import type { FormWords } from '../../view-kit/form-errors.js';
import { Field, type FormState } from '../../view-kit/ui.js';

const HOLDING = CAMPAIGN_FIELDS.holding_period_days;
const PCT = CAMPAIGN_FIELDS.commission_percentage;

export const CAMPAIGN_WORDS = {
  labels: {
    name: 'Name',
    description: 'Description',
    commission_percentage: 'Commission (%)',
    holding_period_days: 'Holding period (days)',
    campaign_type: 'Who may join',
  },
  rules: {
    name: `Give the campaign a name of up to ${CAMPAIGN_FIELDS.name.maxLength} characters.`,
    description: `Use at most ${CAMPAIGN_FIELDS.description.maxLength} characters.`,
    commission_percentage: `Enter a percentage from ${PCT.minimum} to ${PCT.maximum}, such as 20 or 12.5.`,
    holding_period_days: `Enter whole days from ${HOLDING.minimum} to ${HOLDING.maximum}.`,
    campaign_type: 'Pick who may join.',
  },
} satisfies FormWords;

const value = (x: unknown) => (typeof x === 'string' || typeof x === 'number' ? String(x) : '');

export interface CampaignTerms {
  name?: unknown;
  description?: unknown;
  commission_percentage?: unknown;
  holding_period_days?: unknown;
  commission_basis?: unknown;
}

/** The campaign terms as form fields; `c` fills in the current values, `state` a refused post's; `brief` leaves out the optional ones. */
export function TermFields({ prefix, c, state, brief }: { prefix: string; c?: CampaignTerms; state?: FormState; brief?: boolean }) {
  const L = CAMPAIGN_WORDS.labels;
  return (
    <>
      <Field id={`${prefix}-name`} name="name" label={L.name} required maxlength={200} value={value(c?.name)} state={state} />
      {brief ? null : (
        <Field
          id={`${prefix}-description`}
          name="description"
          label={`${L.description}${c ? '' : ' (optional)'}`}
          maxlength={5000}
          value={value(c?.description)}
          state={state}
        />
      )}
      <Field
        id={`${prefix}-pct`}
        name="commission_percentage"
        label={L.commission_percentage}
        hint="Of each referred purchase; the platform fee is reserved on top of it."
        inputmode="decimal"
        required
        value={value(c?.commission_percentage)}
        state={state}
      />
      {brief ? null : (
        <Field
          id={`${prefix}-holding`}
          name="holding_period_days"
          label={`Holding period (days, ${HOLDING.minimum} to ${HOLDING.maximum}; default 30)`}
          hint="Commissions wait this long before they become payable; a refund inside it reverses the commission."
          inputmode="numeric"
          value={value(c?.holding_period_days)}
          state={state}
        />
      )}
      {brief ? null : <BasisField prefix={prefix} current={c?.commission_basis === 'proceeds' ? 'proceeds' : 'gross'} />}
    </>
  );
}

/** The commission basis (docs/purchase-pipeline.md "Commission basis"): what the percentage applies to. */
function BasisField({ prefix, current }: { prefix: string; current: 'gross' | 'proceeds' }) {
  return (
    <p>
      <label for={`${prefix}-basis`}>Commission basis</label>
      <select id={`${prefix}-basis`} name="commission_basis">
        <option value="gross" selected={current === 'gross'}>
          Gross: the customer's price
        </option>
        <option value="proceeds" selected={current === 'proceeds'}>
          Proceeds: what you receive (tax and the store's fee taken out)
        </option>
      </select>
      <br />
      <span class="muted">
        Proceeds are exact when the subscription provider reports the store's fee and the tax, else estimated from the app's fee settings
        and the storefront's tax. A change applies to purchases after it.
      </span>
    </p>
  );
}
