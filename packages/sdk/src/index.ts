export { PbxApi, principalOf } from './client.js';
export type {
  ByteRange,
  CallOptions,
  Data,
  Download,
  ItemOf,
  PagedPaths,
  PageOf,
  PathsFor,
  PbxApiOptions,
  PrincipalKind,
  components,
  operations,
  paths,
} from './client.js';
export { signIn } from './sign-in.js';
export {
  ApiError,
  Conflict,
  Forbidden,
  NotFound,
  PreconditionFailed,
  ServerError,
  TooManyRequests,
  Unauthorized,
  ValidationFailed,
  apiError,
} from './errors.js';
