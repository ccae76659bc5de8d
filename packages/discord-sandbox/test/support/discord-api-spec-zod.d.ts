/**
 * Types for `discord-api-spec/zod`: Zod mini schemas generated from Discord's OpenAPI spec
 * (https://github.com/discord/discord-api-spec), one export per component (`GuildMemberResponseSchema`).
 * The package points its `types` at the generated .js, which TypeScript does not read without
 * `allowJs`. The schemas are only ever used to parse, so they are declared untyped: the few used
 * by name here, and `specOperations.ts` looks the others up by the names the spec gives.
 */
declare module 'discord-api-spec/zod' {
	import type { ZodMiniType } from 'zod/mini';

	export const ErrorResponseSchema: ZodMiniType;
	export const RatelimitedResponseSchema: ZodMiniType;
	export const AttachmentResponseSchema: ZodMiniType;
}
