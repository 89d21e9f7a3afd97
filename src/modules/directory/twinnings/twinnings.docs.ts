import type { OperationDocs } from '../../../http/resource-routes.js';

/** PUT and PATCH of a twinning are one operation under two methods. */
const CHANGE_TWINNING = {
  summary: 'Change a twinning (PUT and PATCH are identical: only supplied fields change)',
  description:
    'A user for itself; an administrator or the PBX key for any user of the PBX. A change of phone number, backup number or type needs the user\u2019s allow_change_twinning_dest permission when the user acts itself (403); status and delay do not. ' +
    'On a provisioned twinning (`sync_source` provision) phone_number, type and dial_strategy are locked for every caller: a different value is 422. ' +
    'A backup number turns FMC on (`fmc_enabled: false` with one is 422); a teams twinning keeps no numbers and no FMC. Answers `{data}`.',
};

/** The OpenAPI text of twinnings.routes.ts, by operation id. */
export const TWINNINGS_DOCS = {
  listTwinnings: {
    summary: 'Twinnings of a user',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403); a deleted user, or another PBX’s, is 404. ' +
      '`search` matches phone number and backup number; `filter[status]`, `filter[type]` and `filter[sync_source]` narrow the page; oldest first unless `sort` says otherwise.',
  },
  createTwinning: {
    summary: 'Add a twinning (with the PBX API key it is a provisioned twinning)',
    description:
      'A user for itself (only with its allow_change_twinning_dest permission, else 403); an administrator or the PBX key for any user of the PBX. ' +
      'Defaults: enabled, mobile, gsm_only, delay 0, no numbers; numbers are read with the PBX country as default region and stored in E.164 (422 if unreadable). ' +
      'A backup number turns FMC on (with `fmc_enabled: false` it is 422); a teams twinning keeps no numbers and no FMC. ' +
      'Created with the PBX key the twinning is provisioned (`sync_source` provision), otherwise manual.',
  },
  getTwinning: {
    summary: 'One twinning',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'A twinning of another user than the one in the path, or of another PBX, is 404.',
  },
  deleteTwinning: {
    summary: 'Remove a twinning',
    description:
      'Removed for good (no restore). ' +
      'A user may remove its own twinning only with its allow_change_twinning_dest permission, and never a provisioned one (403); an administrator or the PBX key removes any twinning of a user of the PBX.',
  },
  replaceTwinning: CHANGE_TWINNING,
  updateTwinning: CHANGE_TWINNING,
} satisfies OperationDocs;
