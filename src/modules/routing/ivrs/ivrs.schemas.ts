import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../../http/list-query.js';
import { IncludeParam } from '../../../http/include.js';
import { DateTime, Embedded, Nullable, PbxText, StringEnum, Uuid } from '../../../http/schema.js';
import { TrashedFilterParam } from '../../../http/soft-delete.js';
import { LanguageOrAuto } from '../shared/languages.js';
import { SoundFileSummary } from '../shared/sound-refs.js';
import { IvrStep } from './ivr-steps.schemas.js';

/** What a caller who presses nothing gets: hung up on, the menu again (up to max_repeats), or the `default` step. */
export const DEFAULT_ACTIONS = ['hangup', 'repeat', 'default_step'] as const;
/** `steps` are always embedded (asking for them, the parent of `steps.target`, is accepted); `steps.target` adds each step's target. */
export const IVR_INCLUDES = ['announcement', 'musicOnHold', 'steps.target'] as const;
export const IVR_SORTS = ['name', 'created_at'] as const;

export const Ivr = Type.Object(
  {
    id: Uuid(),
    pbx_id: Uuid(),
    name: Type.String({ maxLength: 128, examples: ['Main menu'] }),
    comment: Nullable(Type.String({ maxLength: 255 })),
    announcement_id: Uuid({ description: 'Sound file of type announcement played on entry.' }),
    announcement_language: LanguageOrAuto('null = Auto (language detected or inherited earlier in the call).'),
    music_on_hold_id: Nullable(Uuid({ description: 'Sound file of type music.' })),
    default_action: StringEnum(DEFAULT_ACTIONS, { description: 'Behaviour on caller timeout.' }),
    timeout_seconds: Type.Integer({ description: 'Seconds the caller has to press a key after the announcement.' }),
    max_repeats: Type.Integer({ description: 'How often `repeat` plays the menu again before hanging up.' }),
    steps: Type.Array(Embedded(IvrStep), { description: 'The live steps, by option: default, 0-9, *, #; empty when none.' }),
    announcement: Type.Optional(Nullable(SoundFileSummary, { description: 'With include=announcement.' })),
    musicOnHold: Type.Optional(Nullable(SoundFileSummary, { description: 'With include=musicOnHold; null when none.' })),
    created_at: DateTime(),
    updated_at: DateTime(),
    deleted_at: Nullable(DateTime()),
  },
  {
    $id: 'Ivr',
    examples: [
      {
        id: 'b3402a44-8047-402d-b403-b99692533926',
        pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        name: 'Language menu',
        comment: 'Deutsch, français, English: back to the main menu in that language.',
        announcement_id: '46753348-57a0-4344-b0ec-3788662bd581',
        announcement_language: null,
        music_on_hold_id: null,
        default_action: 'repeat',
        timeout_seconds: 5,
        max_repeats: 1,
        steps: [
          {
            id: '50dc2743-a8e5-420d-a67c-77a5ef238eb6',
            pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
            ivr_id: 'b3402a44-8047-402d-b403-b99692533926',
            target_type: 'App\\Models\\Ivr',
            target_id: 'e4f90702-01c5-47ef-b715-71f55b2d49bd',
            name: 'Deutsch',
            option: '1',
            language: 'de',
            voip_ivr_btn_id: null,
            created_at: '2026-11-02T08:30:00.000Z',
            updated_at: '2026-11-02T08:30:00.000Z',
            deleted_at: null,
          },
          {
            id: '983a5b25-5b17-4348-bfb3-62045bf19ce7',
            pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
            ivr_id: 'b3402a44-8047-402d-b403-b99692533926',
            target_type: 'App\\Models\\Ivr',
            target_id: 'e4f90702-01c5-47ef-b715-71f55b2d49bd',
            name: 'Français',
            option: '2',
            language: 'fr',
            voip_ivr_btn_id: null,
            created_at: '2026-11-02T08:30:00.000Z',
            updated_at: '2026-11-02T08:30:00.000Z',
            deleted_at: null,
          },
        ],
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
        deleted_at: null,
      },
    ],
  },
);
export type IvrView = Static<typeof Ivr>;

export const CreateIvrBody = Type.Object(
  {
    pbx_id: Uuid({ description: 'The caller’s PBX (any other is refused with 422).' }),
    name: PbxText({ minLength: 3, maxLength: 64 }),
    comment: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
    announcement: Uuid({ description: 'A live sound file of the PBX of type announcement, played on entry.' }),
    musicOnHold: Type.Optional(Nullable(Uuid({ description: 'A live sound file of the PBX of type music.' }))),
    default_action: Type.Optional(StringEnum(DEFAULT_ACTIONS, { description: 'Behaviour on caller timeout (default hangup).' })),
    announcement_language: Type.Optional(LanguageOrAuto('null (default) = Auto.')),
    timeout_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, description: 'Default 5.' })),
    max_repeats: Type.Optional(Type.Integer({ minimum: 0, maximum: 10, description: 'Default 2.' })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        pbx_id: '446a2d60-2d77-4432-afba-2eb915fd50c7',
        name: 'Main menu',
        comment: '1 sales, 2 support',
        announcement: '7a1d2e3f-4b5c-4d6e-8f90-a1b2c3d4e5f6',
        musicOnHold: null,
        default_action: 'default_step',
      },
    ],
  },
);
export const UpdateIvrBody = Type.Partial(CreateIvrBody, { additionalProperties: false });
export type CreateIvrInput = Static<typeof CreateIvrBody>;
export type UpdateIvrInput = Static<typeof UpdateIvrBody>;

export const IvrParams = Type.Object({ ivr: Uuid() });
export const IvrInclude = Type.Object({ include: IncludeParam(IVR_INCLUDES) });
export const IvrListQuery = ListQuery({
  sort: IVR_SORTS,
  include: IVR_INCLUDES,
  filters: { trashed: TrashedFilterParam('IVRs') },
});
