// The creator page's offer codes (CONTRACT.md "Creator offer codes"): per campaign the creator is in, their store
// offer codes with status and redemption link, a Retire button for each active one (the confirm step, DANGERS), and an
// add form while they are an active member. The forms post to the dashboard REST rows that run the agent API's own
// handlers (api/dashboard/routes.ts), so a refusal comes back beside its field with what was typed kept (form-reply).
import type { OfferCodeRow } from '../../../db/offer-codes.js';
import { OFFER_CODE_RULES, OFFER_MATCH_WORDS } from '../../../lib/offer-codes.js';
import { offerCodeView } from '../../agent/offer-codes.js';
import { ConfirmForm } from '../../view-kit/confirm.js';
import { safeUrl } from '../../view-kit/html.js';
import { PostForm, stateFor, Table, type SignedIn } from '../../view-kit/layout.js';
import { Field, FieldError, LocalTime, type FormState } from '../../view-kit/ui.js';
import { DANGERS } from '../dangers.js';

export interface CampaignMembership {
  campaign_id: string;
  campaign_name: string;
  /** The creator code's status: only an active member gets new offer codes. */
  status: string;
}

function PlatformSelect({ id, state }: { id: string; state?: FormState }) {
  const kept = state?.values?.platform ?? 'ios';
  const error = state?.errors?.platform;
  return (
    <>
      <label for={id}>Store</label>
      <select id={id} name="platform" aria-invalid={error ? 'true' : undefined} aria-describedby={error ? `${id}-error` : undefined}>
        <option value="ios" selected={kept === 'ios'}>
          App Store (ios)
        </option>
        <option value="android" selected={kept === 'android'}>
          Google Play (android)
        </option>
      </select>
      <FieldError id={id} error={error} />
    </>
  );
}

function AddOfferCodeForm({ s, creatorId, campaignId, back }: { s: SignedIn; creatorId: string; campaignId: string; back: string }) {
  const formId = `offer-code-${campaignId}`;
  const state = stateFor(s, formId);
  const id = (name: string) => `${formId}-${name}`;
  return (
    <PostForm
      s={s}
      action={`/api/campaigns/${encodeURIComponent(campaignId)}/affiliates/${encodeURIComponent(creatorId)}/offer-codes`}
      returnTo={back}
      formId={formId}
      id={`${formId}-form`}
    >
      <PlatformSelect id={id('platform')} state={state} />
      <Field
        name="value"
        id={id('value')}
        label="Offer (App Store: reference name; Google Play: offer id or offer tag)"
        state={state}
        required
        maxlength={200}
        hint={
          "App Store: the offer's reference name, exactly as in App Store Connect; make one offer per creator (Apple " +
          'tells us only that name). Google Play: the offer id with its product and base plan below, or an offer tag ' +
          'used by this creator alone.'
        }
      />
      <Field
        name="custom_code"
        id={id('custom_code')}
        label="Custom code people type (optional)"
        state={state}
        maxlength={200}
        hint={OFFER_CODE_RULES.custom_code}
      />
      <Field name="product_id" id={id('product_id')} label="Google Play product id (offer id only)" state={state} maxlength={200} />
      <Field name="base_plan_id" id={id('base_plan_id')} label="Google Play base plan id (offer id only)" state={state} maxlength={200} />
      <button type="submit">Add offer code</button>
    </PostForm>
  );
}

export function OfferCodesSection({
  s,
  creatorId,
  memberships,
  codes,
  back,
}: {
  s: SignedIn;
  creatorId: string;
  memberships: readonly CampaignMembership[];
  codes: readonly OfferCodeRow[];
  back: string;
}) {
  return (
    <section id="offer-codes" aria-labelledby="offer-codes-title">
      <h2 id="offer-codes-title">Offer codes</h2>
      <p class="muted">
        A store offer code credits purchases to this creator with no link and no SDK: whoever redeems it in the App Store or Google Play.
      </p>
      {memberships.map((m) => {
        const mine = codes.filter((c) => c.campaign_id === m.campaign_id);
        return (
          <>
            <h3>{m.campaign_name}</h3>
            {mine.length > 0 ? (
              <div class="table-scroll" role="region" aria-label={`Offer codes in ${m.campaign_name}`} tabindex={0}>
                <Table
                  id={`offer-codes-${m.campaign_id}`}
                  columns={['Store', 'Offer', 'Kind', 'Custom code', 'Redemption link', 'Status', 'Added', '']}
                >
                  {mine.map((row) => {
                    const c = offerCodeView(row);
                    return (
                      <tr data-offer-code={c.id}>
                        <td>{c.platform === 'ios' ? 'App Store' : 'Google Play'}</td>
                        <td>
                          <code>{c.value}</code>
                          {c.product_id ? ` (${c.product_id} / ${c.base_plan_id})` : ''}
                        </td>
                        <td>{OFFER_MATCH_WORDS[c.match]}</td>
                        <td>{c.custom_code ?? ''}</td>
                        <td>{c.redeem_url ? <a href={safeUrl(c.redeem_url)}>{c.redeem_url}</a> : ''}</td>
                        <td class="offer-status">{c.status}</td>
                        <td>
                          <LocalTime at={c.created_at} />
                        </td>
                        <td>
                          {c.status === 'active' ? (
                            <ConfirmForm
                              s={s}
                              action={`/api/offer-codes/${encodeURIComponent(c.id)}/retire`}
                              returnTo={back}
                              {...DANGERS.retireOfferCode}
                            />
                          ) : null}
                        </td>
                      </tr>
                    );
                  })}
                </Table>
              </div>
            ) : (
              <p class="muted">No offer codes in this campaign yet.</p>
            )}
            {m.status === 'active' ? <AddOfferCodeForm s={s} creatorId={creatorId} campaignId={m.campaign_id} back={back} /> : null}
          </>
        );
      })}
    </section>
  );
}
