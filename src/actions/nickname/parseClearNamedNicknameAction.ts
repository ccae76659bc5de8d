import { ClearNamedNicknameAction } from './ClearNamedNicknameAction.js';
import { parseTemplate } from '../shared/nicknameEdits/index.js';

/**
 * The fallback of `/restore name:` and `massnick run restore --name` when no journal is left:
 * clears the nickname wherever it is still what the template gives.
 *
 * @param maxLength `nickname.maxLength` from the settings.
 * @throws {JobError} `TEMPLATE_INVALID`, `NAME_EMPTY` or `NAME_TOO_LONG` (see {@link parseTemplate}).
 */
export function parseClearNamedNicknameAction(text: string, maxLength: number): ClearNamedNicknameAction {
	return new ClearNamedNicknameAction(parseTemplate(text, { maxLength }));
}
