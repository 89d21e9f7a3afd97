import type { OperationDocs } from '../../../http/resource-routes.js';

/** The allow-list rule, as both the save and the test document it. */
const AMI_HOST_RULE =
  "The host must be admitted by the server operator's allow-list of AMI hosts: an address in one of its networks, a host name it lists (exactly or as `*.domain`), or a name that resolves only to addresses in its networks. " +
  'Loopback hosts are admitted only where the operator allows them (development), and link-local, multicast, unspecified and reserved addresses never. ' +
  'A refused host is a 422 `{message, errors: {host: [...]}}`, answered before any connection is attempted; the check is repeated on every connection, which goes to the address that was checked.';

/** The OpenAPI text of pbx-engine.routes.ts, by operation id. */
export const PBX_ENGINE_DOCS = {
  getAmiSettings: {
    summary: "The PBX's Asterisk (AMI) connection settings",
    description:
      'Administrators only. The stored host, port, username, context, whether the engine is enabled, the Asterisk host’s time zone, and the connection state (ok, or failing after repeated refused logins, with the last error); the secret is never returned (`secret_set` tells whether one is stored). 404 when none are stored: calls then go through the default engine.',
  },
  saveAmiSettings: {
    summary: 'Store the AMI connection settings (host, port 5038 by default, username, secret, enabled)',
    description:
      'The secret is stored encrypted and never returned. While enabled, the PBX places calls over AMI instead of the simulated engine. ' + AMI_HOST_RULE,
  },
  deleteAmiSettings: {
    summary: 'Forget the AMI settings (calls go back to the default engine)',
    description:
      'Administrators only. Deletes the stored settings and secret for good; the AMI event listener of this PBX stops, and calls and configuration pushes go to the default engine (the simulated one unless PBX_ENGINE says otherwise). 404 when none are stored.',
  },
  testAmiConnection: {
    summary: 'Check the stored settings: connect, log in, the permissions the engine needs, and the Asterisk version',
    description:
      'Answers the named checks in `data.checks`: `connect`, `login`, `originate` (the AMI user may send Originate: the `originate` write class), `read_call` and `read_cdr` (it receives call and CDR events: the `call` and `cdr` read classes, read from `manager show user` when the user has the `command` class, else `unverified`), `version`. ' +
      '502 `{status: "error", message, data: {checks}}` when the PBX is unreachable, refuses the login or a check failed; 504 when it does not answer in time. ' +
      AMI_HOST_RULE +
      ' Stored settings whose host the allow-list no longer admits are refused the same way (422 on `host`), and calls of such a PBX answer 503.',
  },
} satisfies OperationDocs;
