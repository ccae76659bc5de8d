import { ErrorCodes, JobError } from '../../errors.js';
import { checkIdFileSize } from './idFileSize.js';

/**
 * The text of a file of ids: UTF-8 (with or without its byte order mark), or UTF-16 with one (what
 * a spreadsheet's "Unicode text" export writes). Anything that is not text (a spreadsheet's own
 * format, an image) is refused rather than read as garbage.
 *
 * @throws JobError (`INVALID_ARGUMENT`)
 */
export function decodeIdFile(bytes: Uint8Array): string {
	checkIdFileSize(bytes.byteLength);
	const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
	let text: string;
	try {
		// The decoder drops a byte order mark itself.
		text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
	} catch {
		text = '\0';
	}
	if (text.includes('\0')) {
		throw new JobError(
			ErrorCodes.InvalidArgument,
			'is not a text file (UTF-8 or UTF-16): save or export it as plain text or CSV, one user id a line or in a column.',
		);
	}
	return text;
}
