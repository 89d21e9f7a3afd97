/** Desk phone models the platform provisions, with their programmable line/function keys. */
export const PHONE_MODELS = {
  'yealink-t33g': { label: 'Yealink T33G', buttons: 4 },
  'yealink-t46u': { label: 'Yealink T46U', buttons: 27 },
  'yealink-t54w': { label: 'Yealink T54W', buttons: 27 },
  'snom-d785': { label: 'Snom D785', buttons: 24 },
  'polycom-vvx450': { label: 'Poly VVX 450', buttons: 12 },
  'grandstream-gxp2170': { label: 'Grandstream GXP2170', buttons: 48 },
} as const;

export type PhoneModel = keyof typeof PHONE_MODELS;
export const PHONE_MODEL_IDS = Object.keys(PHONE_MODELS) as PhoneModel[];

export function buttonCount(model: string | null): number {
  return model && model in PHONE_MODELS ? PHONE_MODELS[model as PhoneModel].buttons : 0;
}
