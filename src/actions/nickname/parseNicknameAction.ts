import { NicknameAction } from './NicknameAction.js';
import { parseTemplate } from '../shared/nicknameEdits/index.js';

/**
 * The action of `/massnick name:` and `massnick run massnick --name`: the template checked before
 * anything runs, so a name Discord would refuse never reaches a worker.
 *
 * @param maxLength `nickname.maxLength` from the settings.
 * @throws {JobError} `TEMPLATE_INVALID`, `NAME_EMPTY` or `NAME_TOO_LONG` (see {@link parseTemplate}).
 */
export function parseNicknameAction(text: string, maxLength: number): NicknameAction {
	return new NicknameAction(parseTemplate(text, { maxLength }));
}
