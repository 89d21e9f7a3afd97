import type { Audience } from '../../../platform/events/index.js';

/**
 * A user's own state (do-not-disturb, forwards, the in-call flag) as live events: about the user
 * (subject `user`), for the user and the administrators, and for the PBX key, as they read the
 * user (`GET /users/{id}`) and its settings.
 */
export const USER_STATE_KIND = { subject: 'user', pbxKey: true } as const;

export const userStateAudience = (userId: string): Audience => ({ scope: 'users', userIds: [userId] });
