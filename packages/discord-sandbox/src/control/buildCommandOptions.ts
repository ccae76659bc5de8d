import {
	ApplicationCommandOptionType,
	type APIAttachment,
	type APIApplicationCommandInteractionDataOption,
	type APIApplicationCommandOption,
	type APIInteractionDataResolved,
} from 'discord-api-types/v10';
import type { SandboxState } from '../state/SandboxState.js';
import { ControlError } from './ControlError.js';
import { ATTACHMENT_SIZE_LIMIT } from './interactionEnvelope.js';

/** `{filename, content | contentBase64, contentType?}`: a file the member attaches to an ATTACHMENT option. */
export interface AttachmentValue {
	filename: string;
	/** The file's text, written as UTF-8. */
	content?: string;
	/** The file's bytes, base64: for what is not UTF-8 text. */
	contentBase64?: string;
	/** Default from the name's extension: `text/plain; charset=utf-8` for `.txt`, `text/csv; charset=utf-8` for `.csv`. */
	contentType?: string;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
	txt: 'text/plain; charset=utf-8',
	csv: 'text/csv; charset=utf-8',
	tsv: 'text/tab-separated-values; charset=utf-8',
	json: 'application/json; charset=utf-8',
	png: 'image/png',
	zip: 'application/zip',
};

/**
 * Turns `{name: value}` into an interaction's `data.options`, typed by the registered command's
 * definition, filling `resolved` for roles, users, channels and attachments as Discord does.
 * Roles may be given by id or by name (`{"role": "Staff"}`), users by id, an attachment as the
 * file itself ({@link AttachmentValue}): the sandbox keeps it and serves it at the attachment's
 * signed `url`, as Discord's CDN does, up to the interaction's `attachment_size_limit`.
 */
export function buildCommandOptions(
	state: SandboxState,
	definitions: readonly APIApplicationCommandOption[],
	values: Record<string, unknown>,
	resolved: APIInteractionDataResolved,
	commandName: string,
): APIApplicationCommandInteractionDataOption[] {
	for (const name of Object.keys(values)) {
		if (!definitions.some((definition) => definition.name === name)) {
			throw new ControlError(400, `/${commandName} has no option "${name}"; it has: ${definitions.map((d) => d.name).join(', ') || 'none'}`);
		}
	}
	const options: APIApplicationCommandInteractionDataOption[] = [];
	for (const definition of definitions) {
		const value = values[definition.name];
		if (value === undefined || value === null) {
			if ('required' in definition && definition.required) throw new ControlError(400, `/${commandName} needs option "${definition.name}"`);
			continue;
		}
		options.push(buildOption(state, definition, value, resolved, commandName));
	}
	return options;
}

function buildOption(
	state: SandboxState,
	definition: APIApplicationCommandOption,
	value: unknown,
	resolved: APIInteractionDataResolved,
	commandName: string,
): APIApplicationCommandInteractionDataOption {
	const fail = (why: string): never => {
		throw new ControlError(400, `/${commandName} option "${definition.name}": ${why}`);
	};
	switch (definition.type) {
		case ApplicationCommandOptionType.String: {
			if (typeof value !== 'string') return fail('must be a string');
			const length = [...value].length;
			if (definition.min_length !== undefined && length < definition.min_length) fail(`must be at least ${definition.min_length} characters`);
			if (definition.max_length !== undefined && length > definition.max_length) fail(`must be at most ${definition.max_length} characters`);
			if (definition.choices && !definition.choices.some((choice) => choice.value === value))
				fail(`must be one of ${definition.choices.map((c) => c.value).join(', ')}`);
			return { name: definition.name, type: definition.type, value };
		}
		case ApplicationCommandOptionType.Integer:
		case ApplicationCommandOptionType.Number: {
			const number = typeof value === 'string' ? Number(value) : value;
			if (typeof number !== 'number' || !Number.isFinite(number)) return fail('must be a number');
			if (definition.type === ApplicationCommandOptionType.Integer && !Number.isInteger(number)) fail('must be an integer');
			if (definition.min_value !== undefined && number < definition.min_value) fail(`must be at least ${definition.min_value}`);
			if (definition.max_value !== undefined && number > definition.max_value) fail(`must be at most ${definition.max_value}`);
			return { name: definition.name, type: definition.type, value: number } as APIApplicationCommandInteractionDataOption;
		}
		case ApplicationCommandOptionType.Boolean: {
			const boolean = value === 'true' ? true : value === 'false' ? false : value;
			if (typeof boolean !== 'boolean') return fail('must be true or false');
			return { name: definition.name, type: definition.type, value: boolean };
		}
		case ApplicationCommandOptionType.Role: {
			const role = state.guild.roles.find((candidate) => candidate.id === value || candidate.name === value);
			if (!role) return fail(`no role "${String(value)}" (roles: ${state.guild.roles.map((r) => r.name).join(', ')})`);
			(resolved.roles ??= {})[role.id] = role;
			return { name: definition.name, type: definition.type, value: role.id };
		}
		case ApplicationCommandOptionType.User:
		case ApplicationCommandOptionType.Mentionable: {
			const role = definition.type === ApplicationCommandOptionType.Mentionable && state.guild.roles.find((candidate) => candidate.id === value);
			if (role) {
				(resolved.roles ??= {})[role.id] = role;
				return { name: definition.name, type: definition.type, value: role.id };
			}
			const index = typeof value === 'string' ? state.memberIndex(state.guildId, value) : -1;
			if (index === -1) return fail(`no member ${String(value)}`);
			const { user, ...member } = state.memberJson(index);
			(resolved.users ??= {})[user.id] = user;
			(resolved.members ??= {})[user.id] = { ...member, permissions: state.permissions(index).toString() };
			return { name: definition.name, type: definition.type, value: user.id };
		}
		case ApplicationCommandOptionType.Channel: {
			if (value !== state.guild.channel.id) return fail(`no channel ${String(value)}`);
			const channel = state.channelJson();
			(resolved.channels ??= {})[channel.id] = { id: channel.id, type: channel.type, name: channel.name, permissions: '0' } as never;
			return { name: definition.name, type: definition.type, value: channel.id };
		}
		case ApplicationCommandOptionType.Attachment: {
			const attachment = attachmentOf(state, value, fail);
			(resolved.attachments ??= {})[attachment.id] = attachment;
			return { name: definition.name, type: definition.type, value: attachment.id };
		}
		default:
			return fail(`options of type ${definition.type} are not supported by the sandbox`);
	}
}

/** The file of an ATTACHMENT option, kept by the sandbox's CDN, as Discord's attachment object. */
function attachmentOf(state: SandboxState, value: unknown, fail: (why: string) => never): APIAttachment {
	if (typeof value !== 'object' || value === null) return fail('must be a file: {filename, content} or {filename, contentBase64}');
	const { filename, content, contentBase64, contentType } = value as Partial<AttachmentValue>;
	if (typeof filename !== 'string' || filename.trim() === '' || filename.length > 1024 || /[\\/\0]/.test(filename)) {
		return fail('needs a filename: up to 1024 characters, no slash');
	}
	if ((content === undefined) === (contentBase64 === undefined)) return fail('needs the file as content (text) or contentBase64, one of them');
	if (content !== undefined && typeof content !== 'string') return fail('content must be a string');
	if (contentBase64 !== undefined && (typeof contentBase64 !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(contentBase64)))
		return fail('contentBase64 must be base64');
	if (contentType !== undefined && typeof contentType !== 'string') return fail('contentType must be a string');
	const bytes = content !== undefined ? Buffer.from(content, 'utf8') : Buffer.from(contentBase64!, 'base64');
	if (bytes.byteLength > ATTACHMENT_SIZE_LIMIT) {
		return fail(`is ${bytes.byteLength} bytes, more than the ${ATTACHMENT_SIZE_LIMIT} (attachment_size_limit) a member may upload in this guild`);
	}
	const extension = /\.([^.]+)$/.exec(filename)?.[1]?.toLowerCase() ?? '';
	return state.attachments.add({
		id: state.snowflakes.next().toString(),
		channelId: state.guild.channel.id,
		filename,
		contentType: contentType ?? CONTENT_TYPES[extension] ?? 'application/octet-stream',
		bytes,
	});
}
