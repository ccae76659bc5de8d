import { ComponentType, TextInputStyle } from 'discord-api-types/v10';
import { DiscordHttpError, type FieldError } from './errors.js';

/** One text input of a modal, as the member will fill it. */
export interface ModalTextInput {
	readonly customId: string;
	/** Its numeric `id`, given or numbered (see {@link readModal}). */
	readonly id: number;
	readonly style: TextInputStyle;
	/** Discord's default is `true`. */
	readonly required: boolean;
	readonly minLength: number;
	readonly maxLength: number;
}

/** A top-level component of a modal, with what a submit echoes of it. */
export type ModalPart =
	| { readonly kind: 'label'; readonly id: number; readonly input: ModalTextInput }
	| { readonly kind: 'row'; readonly id: number; readonly input: ModalTextInput }
	| { readonly kind: 'text'; readonly id: number };

/** A modal a bot answered an interaction with (callback 9), as the member sees it. */
export interface SandboxModal {
	readonly customId: string;
	readonly title: string;
	readonly parts: readonly ModalPart[];
}

const MAX_PARTS = 5;
const MAX_CUSTOM_ID = 100;
const MAX_TITLE = 45;
const MAX_LABEL = 45;
const MAX_DESCRIPTION = 100;
const MAX_TEXT = 4000;
const MAX_PLACEHOLDER = 100;

const length = (text: string): number => [...text].length;

/**
 * Reads the `data` of a MODAL callback (9) as Discord checks it, and throws one 400/50035 naming
 * every field that failed under `data.` (`data.components.0.component.custom_id`):
 *
 * - `custom_id` 1–100 characters, `title` 1–45, 1 to 5 `components`;
 * - each component a Label (18: `label` 1–45, `description` up to 100, one `component`), an
 *   action row (1, the older layout: exactly one text input) or a Text Display (10: `content`
 *   1–4000);
 * - each text input (4): `custom_id` 1–100 and unique in the modal, `style` 1 or 2, `min_length`
 *   0–4000, `max_length` 1–4000 and not below `min_length`, `value` up to 4000, `placeholder` up
 *   to 100.
 *
 * The selects, file uploads, radio groups and checkboxes a Label may also hold are not emulated:
 * they are refused with a 50035 whose message says so. Components without an `id` are numbered
 * from 1 in document order, as Discord numbers a message's.
 *
 * @see {@link https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-modal}
 * @see {@link https://discord.com/developers/docs/components/reference#label}
 * @see {@link https://discord.com/developers/docs/components/reference#text-input}
 */
export function readModal(data: unknown): SandboxModal {
	const problems: Array<readonly [string, FieldError]> = [];
	const fail = (path: readonly (string | number)[], error: FieldError): void => {
		problems.push([['data', ...path].join('.'), error]);
	};
	const text = (value: unknown, path: readonly (string | number)[], min: number, max: number, required: boolean): string | undefined => {
		if (value === undefined || value === null) {
			if (required) fail(path, { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' });
			return undefined;
		}
		if (typeof value !== 'string') {
			fail(path, { code: 'BASE_TYPE_STRING', message: 'Must be a string.' });
			return undefined;
		}
		if (length(value) < min || length(value) > max) {
			fail(path, { code: 'BASE_TYPE_BAD_LENGTH', message: `Must be between ${min} and ${max} in length.` });
			return undefined;
		}
		return value;
	};
	const body = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
	const customId = text(body.custom_id, ['custom_id'], 1, MAX_CUSTOM_ID, true) ?? '';
	const title = text(body.title, ['title'], 1, MAX_TITLE, true) ?? '';
	const components = Array.isArray(body.components) ? (body.components as unknown[]) : undefined;
	if (!components) fail(['components'], { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' });
	else if (components.length < 1 || components.length > MAX_PARTS) {
		fail(['components'], { code: 'BASE_TYPE_BAD_LENGTH', message: `Must be between 1 and ${MAX_PARTS} in length.` });
	}

	const ids = new Numbering(components ?? []);
	const customIds = new Set<string>();
	const input = (node: Record<string, unknown>, path: readonly (string | number)[]): ModalTextInput | undefined => {
		if (node.type !== ComponentType.TextInput) {
			fail([...path, 'type'], {
				code: 'COMPONENT_TYPE_INVALID',
				message: `The sandbox emulates text inputs (4) in modals only; got component type ${JSON.stringify(node.type)}.`,
			});
			return undefined;
		}
		const id = text(node.custom_id, [...path, 'custom_id'], 1, MAX_CUSTOM_ID, true);
		if (id !== undefined && customIds.has(id)) {
			fail([...path, 'custom_id'], { code: 'COMPONENT_CUSTOM_ID_DUPLICATED', message: 'Component custom id cannot be duplicated' });
		}
		if (id !== undefined) customIds.add(id);
		if (node.style !== TextInputStyle.Short && node.style !== TextInputStyle.Paragraph) {
			fail([...path, 'style'], { code: 'BASE_TYPE_CHOICES', message: `Value must be one of {${TextInputStyle.Short}, ${TextInputStyle.Paragraph}}.` });
		}
		const minLength = bound(node.min_length, 0, [...path, 'min_length'], 0);
		const maxLength = bound(node.max_length, 1, [...path, 'max_length'], MAX_TEXT);
		if (minLength > maxLength) fail([...path, 'min_length'], { code: 'BASE_TYPE_MAX', message: `int value should be less than or equal to ${maxLength}.` });
		text(node.value, [...path, 'value'], 0, MAX_TEXT, false);
		text(node.placeholder, [...path, 'placeholder'], 0, MAX_PLACEHOLDER, false);
		return {
			customId: id ?? '',
			id: ids.of(node),
			style: node.style as TextInputStyle,
			required: node.required !== false,
			minLength,
			maxLength,
		};
	};
	const bound = (value: unknown, min: number, path: readonly (string | number)[], fallback: number): number => {
		if (value === undefined || value === null) return fallback;
		if (!Number.isInteger(value) || (value as number) < min || (value as number) > MAX_TEXT) {
			fail(path, { code: 'NUMBER_TYPE_MAX', message: `Must be an integer from ${min} to ${MAX_TEXT}.` });
			return fallback;
		}
		return value as number;
	};

	const parts: ModalPart[] = [];
	(components ?? []).forEach((raw, index) => {
		const path = ['components', index];
		const node = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
		const id = ids.of(node);
		if (node.type === ComponentType.Label) {
			text(node.label, [...path, 'label'], 1, MAX_LABEL, true);
			text(node.description, [...path, 'description'], 1, MAX_DESCRIPTION, false);
			const child = typeof node.component === 'object' && node.component !== null ? (node.component as Record<string, unknown>) : undefined;
			if (!child) fail([...path, 'component'], { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' });
			const read = child && input(child, [...path, 'component']);
			if (read) parts.push({ kind: 'label', id, input: read });
		} else if (node.type === ComponentType.ActionRow) {
			const children = Array.isArray(node.components) ? (node.components as unknown[]) : [];
			if (children.length !== 1) fail([...path, 'components'], { code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 1 in length.' });
			const child = children[0];
			const read = typeof child === 'object' && child !== null ? input(child as Record<string, unknown>, [...path, 'components', 0]) : undefined;
			if (read) parts.push({ kind: 'row', id, input: read });
		} else if (node.type === ComponentType.TextDisplay) {
			text(node.content, [...path, 'content'], 1, MAX_TEXT, true);
			parts.push({ kind: 'text', id });
		} else {
			fail([...path, 'type'], {
				code: 'COMPONENT_TYPE_INVALID',
				message: `A modal's components are labels (18), text displays (10) or action rows (1); got ${JSON.stringify(node.type)}.`,
			});
		}
	});
	if (problems.length > 0) throw DiscordHttpError.invalidFields(problems);
	return { customId, title, parts };
}

/**
 * The `id` of each component of a modal: its own when it has one, else the next free number from
 * 1 in document order (a parent before its child), as Discord numbers components.
 */
class Numbering {
	readonly #given = new Map<object, number>();

	constructor(components: readonly unknown[]) {
		const nodes: Record<string, unknown>[] = [];
		const visit = (node: unknown): void => {
			if (typeof node !== 'object' || node === null) return;
			const record = node as Record<string, unknown>;
			nodes.push(record);
			if (Array.isArray(record.components)) for (const child of record.components) visit(child);
			if (typeof record.component === 'object') visit(record.component);
		};
		for (const component of components) visit(component);
		const used = new Set(nodes.map((node) => node.id).filter((id): id is number => Number.isInteger(id) && (id as number) > 0));
		let next = 1;
		for (const node of nodes) {
			if (Number.isInteger(node.id) && (node.id as number) > 0) {
				this.#given.set(node, node.id as number);
				continue;
			}
			while (used.has(next)) next++;
			this.#given.set(node, next);
			used.add(next);
		}
	}

	of(node: object): number {
		return this.#given.get(node) ?? 0;
	}
}
