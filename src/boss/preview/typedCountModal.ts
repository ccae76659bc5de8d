import { type APIModalInteractionResponseCallbackData, ComponentType, escapeMarkdown, TextInputStyle } from 'discord.js';
import { formatCount } from '../../present/index.js';
import { confirmModalId } from '../customIds.js';
import type { Preview } from './Preview.js';

/** The custom_id of the modal's text input: where the count is typed. */
export const TYPED_COUNT_INPUT = 'count';

/** Discord's limits on a modal: a title of 45 characters, a label of 45, a description of 100, a text display of 4000. */
const TITLE_LIMIT = 45;
const TEXT_LIMIT = 4000;

/**
 * The modal a preview's Start opens for a job whose count is typed before it runs (a kick, a ban
 * of more than 100): what runs, why the count is asked (a kick cannot be undone; a ban is large),
 * and a box for the number of members the preview shows, the way a repository's name is typed
 * before it is deleted. Sent as Discord's own modal JSON: a Text Display, and a Label holding a
 * short Text Input.
 *
 * @see {@link https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-modal}
 * @see {@link https://discord.com/developers/docs/components/reference#label}
 */
export function typedCountModal(preview: Preview, count: number): APIModalInteractionResponseCallbackData {
	const { facts } = preview;
	const shown = formatCount(count);
	const lines = [`**${escapeMarkdown(facts.title)}** for ${escapeMarkdown(facts.scope)}: **${shown}** members.`];
	const why = facts.irreversible ?? facts.typedCountWhy;
	if (why) lines.push(`${escapeMarkdown(why)}.`);
	lines.push(`Type **${count}** below to start it. Anything else starts nothing.`);
	return {
		custom_id: confirmModalId(preview.id),
		title: clip(`Confirm: ${facts.title}`, TITLE_LIMIT),
		components: [
			{ type: ComponentType.TextDisplay, content: clip(lines.join('\n'), TEXT_LIMIT) },
			{
				type: ComponentType.Label,
				label: 'The number of members shown in the preview',
				description: `Type ${shown} to start`,
				component: {
					type: ComponentType.TextInput,
					custom_id: TYPED_COUNT_INPUT,
					style: TextInputStyle.Short,
					required: true,
					min_length: 1,
					max_length: 20,
					placeholder: 'the number of members',
				},
			},
		],
	};
}

/** Digits, or digits in groups of three with one separator throughout: `2000`, `2,000`, `1 234 567`. */
const WHOLE_NUMBER = /^(?:\d{1,15}|\d{1,3}(?<sep>[,. _'’\u00a0\u202f])\d{3}(?:\k<sep>\d{3}){0,3})$/;

/**
 * The number a member typed, read as people write numbers: `2000`, `2,000`, `2 000`, `2.000`,
 * `2'000`; `undefined` for anything else (`2.5`, `2,00`, `two thousand`), so that only the number
 * meant matches.
 */
export function readTypedCount(text: string): number | undefined {
	const trimmed = text.trim();
	if (!WHOLE_NUMBER.test(trimmed)) return undefined;
	return Number(trimmed.replace(/\D/g, ''));
}

function clip(text: string, limit: number): string {
	const points = [...text];
	return points.length <= limit ? text : `${points.slice(0, limit - 1).join('')}…`;
}
