import type { SandboxControl } from '@massnick/discord-sandbox';
import type { Answer } from './commandAnswer.js';

/** Where a preview is: its guild and channel. */
export interface PreviewPlace {
	readonly guildId: string;
	readonly channelId: string;
}

/** How a preview asks for its count: `… type the number of members it will change, **2,400**, in the box it opens`. */
const ASKED = /type the number of members it will change, \*\*([\d,]+)\*\*, in the box it opens/;

/** The number a preview's text asks to be typed at Start; `undefined` when its Start starts at once. */
export function typedCountOf(text: string): number | undefined {
	const asked = ASKED.exec(text)?.[1];
	return asked === undefined ? undefined : Number(asked.replaceAll(',', ''));
}

/**
 * Starts a job from its open preview as its member would: presses Start and, when the preview
 * asks for its count typed (a kick, a ban of more than 100), submits the number it shows in the
 * modal Start opens. Resolves with that number (`undefined` when Start started at once) once the
 * boss has answered the press or the submit.
 */
export async function startFromPreview(control: SandboxControl, place: PreviewPlace, userId: string, preview: Answer): Promise<number | undefined> {
	const start = preview.buttons.find((customId) => customId.endsWith(':start'));
	if (start === undefined || preview.messageId === null) throw new Error(`not a preview with a Start button: ${preview.text}`);
	const typed = typedCountOf(preview.text);
	const press = await control.pressButton(place.guildId, userId, place.channelId, preview.messageId, start);
	if (typed === undefined) {
		await control.waitForResponses(press, 1);
		return undefined;
	}
	await control.waitForModal(press);
	const submit = await control.submitModal(press, { count: String(typed) });
	await control.waitForResponses(submit, 1);
	return typed;
}
