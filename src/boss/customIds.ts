/**
 * The custom_ids of massnick's buttons and modals: `<prefix>:<arguments…>`, so the boss routes a
 * press or a submit by its prefix (see `componentHandlers.ts`) and the handler reads the rest.
 * Each id names what it is about (a preview, a job), so a press on a stale message never reaches
 * something newer.
 *
 * @see https://discord.com/developers/docs/components/reference#button
 * @see https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-modal
 */

/** Discord's limit on a component's custom_id. */
export const CUSTOM_ID_MAX_LENGTH = 100;

/** The buttons of a preview. */
export type PreviewButton = 'start' | 'cancel';

/** The buttons of a live status message, and the confirmation of its Cancel. */
export type StatusButton = 'cancel' | 'refresh' | 'confirm';

/** Every prefix the boss answers, with the arguments its ids carry. */
export interface CustomIdArgs {
	/** `preview:<previewId>:<start|cancel>` */
	preview: { previewId: string; button: PreviewButton };
	/** `status:<jobKey>:<cancel|refresh>`, or `status:<jobKey>:confirm:<userId>` (only that member may press it). */
	status: { jobKey: string; button: StatusButton; userId?: string | undefined };
	/** `confirm:<previewId>`: the modal a preview's Start opens for a job whose count is typed. */
	confirm: { previewId: string };
}

export type CustomIdPrefix = keyof CustomIdArgs;

/** The prefixes of buttons; `confirm` is a modal's. */
export type ButtonPrefix = Exclude<CustomIdPrefix, 'confirm'>;

const SEPARATOR = ':';

/** The id of a preview's Start or Cancel button. */
export function previewButtonId(previewId: string, button: PreviewButton): string {
	return join('preview', previewId, button);
}

/** The id of a live status button; `confirm` carries the member who asked to cancel. */
export function statusButtonId(jobKey: string, button: StatusButton, userId?: string): string {
	return button === 'confirm' ? join('status', jobKey, button, userId ?? '') : join('status', jobKey, button);
}

/** The id of the modal that takes the typed count of preview `previewId`'s job. */
export function confirmModalId(previewId: string): string {
	return join('confirm', previewId);
}

/** What a custom_id says, or `undefined` for one massnick did not make (or an older version did). */
export function parseCustomId(customId: string): { [P in CustomIdPrefix]: { prefix: P; args: CustomIdArgs[P] } }[CustomIdPrefix] | undefined {
	const [prefix, id, button, userId, ...rest] = customId.split(SEPARATOR);
	if (!id || rest.length > 0) return undefined;
	if (prefix === 'preview' && (button === 'start' || button === 'cancel') && userId === undefined) {
		return { prefix, args: { previewId: id, button } };
	}
	if (prefix === 'confirm' && button === undefined) return { prefix, args: { previewId: id } };
	if (prefix === 'status') {
		if ((button === 'cancel' || button === 'refresh') && userId === undefined) return { prefix, args: { jobKey: id, button } };
		if (button === 'confirm' && userId) return { prefix, args: { jobKey: id, button, userId } };
	}
	return undefined;
}

function join(...parts: string[]): string {
	for (const part of parts) {
		if (part === '' || part.includes(SEPARATOR)) throw new RangeError(`a custom_id part must be non-empty and without '${SEPARATOR}': ${JSON.stringify(part)}`);
	}
	const id = parts.join(SEPARATOR);
	if (id.length > CUSTOM_ID_MAX_LENGTH) throw new RangeError(`custom_id ${id} is ${id.length} characters; Discord allows ${CUSTOM_ID_MAX_LENGTH}`);
	return id;
}
