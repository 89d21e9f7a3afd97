/** One OpenAPI section for a user's settings, DND rules, buttons and forwards, as the contract groups them. */
export const USER_SETTINGS_TAGS = ['Users: settings, DND, groups, buttons, forwards'];
