import type { ControlInteraction, SandboxControl } from '@massnick/discord-sandbox';
import { waitUntil } from './waitUntil.js';

const EPHEMERAL = 64;
const DEFERRED_REPLY = 5;

/** What a member sees as the answer to a command or a press: its text, and the buttons on it. */
export interface Answer {
	/** The content, then each embed's title and description, one per line. */
	text: string;
	ephemeral: boolean;
	/** The custom_ids of its buttons. */
	buttons: string[];
	/** The message `@original` is, when the answer is one (a reply, or a deferral filled in). */
	messageId: string | null;
	interaction: ControlInteraction;
}

type Response = ControlInteraction['responses'][number];
type MessageBody = {
	content?: string;
	flags?: number;
	embeds?: Array<{ title?: string; description?: string }>;
	components?: Array<{ components?: Array<{ custom_id?: string }> }>;
};

/**
 * Waits for the answer to a slash command: its reply, or, when it deferred, the edit that fills
 * the deferral in (not the live status or anything posted after it).
 */
export async function commandAnswer(control: SandboxControl, interactionId: string, timeoutMs = 20_000): Promise<Answer> {
	const interaction = await waitFor(control, interactionId, timeoutMs, (responses) => {
		const [first] = responses;
		if (first === undefined) return false;
		return first.type !== DEFERRED_REPLY || responses.some((response) => response.kind === 'edit');
	});
	const [first] = interaction.responses;
	const final = first!.type === DEFERRED_REPLY ? interaction.responses.find((response) => response.kind === 'edit')! : first!;
	return answer(interaction, final, ((bodyOf(first!).flags ?? 0) & EPHEMERAL) === EPHEMERAL);
}

/**
 * Waits for the last word on a press of a preview's Start: a private refusal, or the preview edited
 * twice (starting, then started or failed). `settled` tells when the press has its last word.
 */
export async function pressAnswer(control: SandboxControl, interactionId: string, settled: 'first' | 'edit', timeoutMs = 20_000): Promise<Answer> {
	const interaction = await waitFor(control, interactionId, timeoutMs, (responses) => {
		const [first] = responses;
		if (first === undefined) return false;
		return settled === 'first' || first.type === 4 || responses.some((response) => response.kind === 'edit');
	});
	const final = interaction.responses.findLast((response) => response.kind === 'edit') ?? interaction.responses[0]!;
	return answer(interaction, final, ((bodyOf(final).flags ?? 0) & EPHEMERAL) === EPHEMERAL);
}

async function waitFor(control: SandboxControl, id: string, timeoutMs: number, done: (responses: readonly Response[]) => boolean): Promise<ControlInteraction> {
	let interaction: ControlInteraction | undefined;
	await waitUntil(
		async () => {
			interaction = await control.interaction(id);
			return done(interaction.responses);
		},
		{ what: `the answer to interaction ${id}`, timeoutMs, everyMs: 20 },
	);
	return interaction!;
}

function bodyOf(response: Response): MessageBody {
	const body = (response.body ?? {}) as { data?: MessageBody } & MessageBody;
	return response.kind === 'callback' ? (body.data ?? {}) : body;
}

function answer(interaction: ControlInteraction, response: Response, ephemeral: boolean): Answer {
	const body = bodyOf(response);
	const lines = [body.content ?? '', ...(body.embeds ?? []).flatMap((embed) => [embed.title ?? '', embed.description ?? ''])].filter((line) => line !== '');
	return {
		text: lines.join('\n'),
		ephemeral,
		buttons: (body.components ?? []).flatMap((row) => row.components ?? []).map((button) => button.custom_id ?? ''),
		messageId: response.messageId ?? interaction.originalMessageId,
		interaction,
	};
}
