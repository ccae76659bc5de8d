/**
 * What every action that sets nicknames shares (the template, the clear, the cleaned name): its
 * base class, the nickname template and its limits, and how a preview shows one change. A module
 * of its own, not an action's folder, so no action imports another.
 */
export { describeNicknameChange } from './describeNicknameChange.js';
export { holdsNickname, NicknameEditAction, setNickname } from './NicknameEditAction.js';
export {
	expandTemplate,
	fitNickname,
	isExpansionOf,
	NICKNAME_MAX_LENGTH,
	normalizeNickname,
	PLACEHOLDERS,
	type ParseTemplateOptions,
	type Placeholder,
	parseTemplate,
	type Template,
	type TemplateMember,
	type TemplatePart,
	templateIsPlain,
	templateUses,
} from './template.js';
