import { ButtonStyle, ComponentType, MessageFlags } from 'discord-api-types/v10';
import { DiscordHttpError, type FieldError } from './errors.js';
import { walkComponents } from './walkComponents.js';

/** Top-level components of a message without IS_COMPONENTS_V2: action rows only, at most 5. */
const MAX_LEGACY_ROWS = 5;
/** An action row holds 1 to 5 buttons (or a single select). */
const MAX_ROW_CHILDREN = 5;
const MAX_CUSTOM_ID = 100;
const MAX_LABEL = 80;

/** Components that send interactions, and so carry a `custom_id`. */
const INTERACTIVE = new Set<unknown>([
	ComponentType.Button,
	ComponentType.StringSelect,
	ComponentType.UserSelect,
	ComponentType.RoleSelect,
	ComponentType.MentionableSelect,
	ComponentType.ChannelSelect,
]);
const BUTTON_STYLES = [ButtonStyle.Primary, ButtonStyle.Secondary, ButtonStyle.Success, ButtonStyle.Danger, ButtonStyle.Link, ButtonStyle.Premium];

const length = (text: string): number => [...text].length;

/**
 * Checks a message's components as Discord does before it stores them, and throws one 400/50035
 * naming every field that failed (`components.0.components.1.custom_id`), under `prefix` (`data.`
 * for an interaction callback, whose message sits in `data`).
 *
 * - At most 5 action rows without IS_COMPONENTS_V2 (BASE_TYPE_MAX_LENGTH); 1 to 5 children per
 *   row (BASE_TYPE_BAD_LENGTH).
 * - Buttons: a known `style`; a label of at most 80 characters; a `custom_id` on every button but
 *   link and premium ones, a `url` and no `custom_id` on a link button.
 * - Every `custom_id`: 1 to 100 characters, unique in the message (disabled components
 *   included); the second of two equal ones is the one named (COMPONENT_CUSTOM_ID_DUPLICATED).
 *
 * @see {@link https://discord.com/developers/docs/components/reference#action-row}
 * @see {@link https://discord.com/developers/docs/components/reference#button}
 * @see {@link https://discord.com/developers/docs/components/reference#anatomy-of-a-component-custom-id}
 * @see {@link https://discord.com/developers/docs/components/reference#legacy-message-component-behavior}
 */
export function validateComponents(components: readonly unknown[], flags: number, prefix = ''): void {
	const problems: Array<readonly [string, FieldError]> = [];
	const fail = (path: readonly (string | number)[], error: FieldError): void => {
		problems.push([prefix + path.join('.'), error]);
	};
	if ((flags & MessageFlags.IsComponentsV2) === 0 && components.length > MAX_LEGACY_ROWS) {
		fail(['components'], { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${MAX_LEGACY_ROWS} or fewer in length.` });
	}
	const customIds = new Set<string>();
	walkComponents(components, (node, path) => {
		if (node.type === ComponentType.ActionRow) {
			const children = Array.isArray(node.components) ? node.components.length : 0;
			if (children < 1 || children > MAX_ROW_CHILDREN) {
				fail([...path, 'components'], { code: 'BASE_TYPE_BAD_LENGTH', message: `Must be between 1 and ${MAX_ROW_CHILDREN} in length.` });
			}
		}
		if (node.type === ComponentType.Button) {
			const style = node.style as ButtonStyle;
			if (!BUTTON_STYLES.includes(style))
				fail([...path, 'style'], { code: 'BASE_TYPE_CHOICES', message: `Value must be one of {${BUTTON_STYLES.join(', ')}}.` });
			if (typeof node.label === 'string' && length(node.label) > MAX_LABEL) {
				fail([...path, 'label'], { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${MAX_LABEL} or fewer in length.` });
			}
			const hasCustomId = node.custom_id !== undefined && node.custom_id !== null;
			if (style === ButtonStyle.Link) {
				if (typeof node.url !== 'string') fail([...path, 'url'], { code: 'BUTTON_COMPONENT_URL_REQUIRED', message: 'A url is required' });
				if (hasCustomId)
					fail([...path, 'custom_id'], { code: 'BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE', message: 'A custom id and url cannot both be specified' });
				return;
			}
			if (style !== ButtonStyle.Premium && !hasCustomId) {
				fail([...path, 'custom_id'], { code: 'BUTTON_COMPONENT_CUSTOM_ID_REQUIRED', message: 'A custom id is required' });
				return;
			}
		}
		if (!INTERACTIVE.has(node.type) || node.custom_id === undefined || node.custom_id === null) return;
		if (typeof node.custom_id !== 'string') {
			fail([...path, 'custom_id'], { code: 'BASE_TYPE_STRING', message: 'Must be a string.' });
		} else if (length(node.custom_id) < 1 || length(node.custom_id) > MAX_CUSTOM_ID) {
			fail([...path, 'custom_id'], { code: 'BASE_TYPE_BAD_LENGTH', message: `Must be between 1 and ${MAX_CUSTOM_ID} in length.` });
		} else if (customIds.has(node.custom_id)) {
			fail([...path, 'custom_id'], { code: 'COMPONENT_CUSTOM_ID_DUPLICATED', message: 'Component custom id cannot be duplicated' });
		} else {
			customIds.add(node.custom_id);
		}
	});
	if (problems.length > 0) throw DiscordHttpError.invalidFields(problems);
}
