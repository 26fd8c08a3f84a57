// The dashboard REST of the programme's people and material: creators and invitations, bonus awards, free-access
// codes and marketing assets. Served through rest.ts's router (session only, CSRF on changes, audit), and the
// handlers are the agent API's own (svc_invite_creator, svc_withdraw_invitation, svc_review_bonus_award, ...), so
// a dashboard change and an agent's follow one rule: another organization's id is the same 404, a wallet that
// cannot cover a bonus the same 402. Only the asset upload, its file and the free-code block have no agent route.
import { listAssetsHandler, listAssetsQuery, setAssetFeaturedBody, setAssetFeaturedHandler } from '../agent/assets.js';
import { listBonusAwardsHandler, listBonusAwardsQuery, reviewBonusAwardBody, reviewBonusAwardHandler } from '../agent/bonus-awards.js';
import { createFreeCodeBody, createFreeCodeHandler, listFreeCodesHandler, listFreeCodesQuery } from '../agent/free-codes.js';
import {
  inviteBody, inviteHandler, listAffiliatesHandler, listInvitationsHandler, listInvitationsQuery, MAX_BATCH, withdrawInvitationHandler,
} from '../agent/invitations.js';
import { parseCreatorBatch } from '../../lib/creator-batch.js';
import { assetFileHandler, uploadAssetHandler } from './asset-upload.js';
import { blockFreeCodeBody, blockFreeCodeHandler } from './free-code-block.js';
import { r, restRouter, type DashboardRoute } from './rest.js';

/** The batch form's textarea (`batch`) becomes `creators`; the form's message and language apply to every line. */
function inviteForm(fields: Record<string, unknown>): Record<string, unknown> {
  if (typeof fields.batch !== 'string') return fields;
  const message = typeof fields.message === 'string' ? fields.message : undefined;
  const creators = parseCreatorBatch(fields.batch, MAX_BATCH, message);
  const lang = typeof fields.lang === 'string' ? fields.lang : undefined;
  return { creators: lang ? creators.map((c) => ({ lang, ...c })) : creators };
}

export const CREATOR_ROUTES: readonly DashboardRoute[] = [
  r('get', '/api/campaigns/:campaign_id/affiliates', 'list_affiliates', listAffiliatesHandler),
  r('post', '/api/campaigns/:campaign_id/invite', 'invite_creator', inviteHandler, { body: inviteBody, form: inviteForm }),
  r('get', '/api/invitations', 'list_invitations', listInvitationsHandler, { query: listInvitationsQuery }),
  r('post', '/api/invitations/:invitation_id/withdraw', 'withdraw_invitation', withdrawInvitationHandler),
  r('get', '/api/bonus-awards', 'list_bonus_awards', listBonusAwardsHandler, { query: listBonusAwardsQuery }),
  r('post', '/api/bonus-awards/:award_id/review', 'review_bonus_award', reviewBonusAwardHandler, { body: reviewBonusAwardBody }),
  r('get', '/api/apps/:app_id/free-codes', 'list_free_codes', listFreeCodesHandler, { query: listFreeCodesQuery }),
  r('post', '/api/apps/:app_id/free-codes', 'create_free_code', createFreeCodeHandler, { body: createFreeCodeBody }),
  r('post', '/api/apps/:app_id/free-codes/:free_code_id/block', 'block_free_code', blockFreeCodeHandler, { body: blockFreeCodeBody }),
  r('get', '/api/apps/:app_id/assets', 'list_assets', listAssetsHandler, { query: listAssetsQuery }),
  r('post', '/api/apps/:app_id/assets', 'upload_asset', uploadAssetHandler),
  r('post', '/api/assets/:asset_id/featured', 'set_asset_featured', setAssetFeaturedHandler, { body: setAssetFeaturedBody }),
  r('get', '/api/assets/:asset_id/file', 'asset_file', assetFileHandler),
];

export const creatorRestRoutes = () => restRouter(CREATOR_ROUTES);
