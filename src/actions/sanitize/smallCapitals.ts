/**
 * The Latin small capitals that "small caps" text generators put in place of letters (ᴊᴏʜɴ), and
 * the lowercase letter each stands for (generators make them from lowercase text, and `ᴊᴏʜɴ` reads
 * as `john`, not as a shouted `JOHN`).
 *
 * This is the one table the cleaner keeps itself, because Unicode links these letters to nothing:
 * they are phonetic letters (IPA, the Uralic Phonetic Alphabet) with no decomposition, so NFKC
 * leaves them, root collation gives each its own primary weight, and confusables.txt maps only
 * some of them (ᴄ, ɪ, ᴏ, ꜱ, ...). No language writes its names with them. `ǫ` (o with ogonek),
 * which generators also press into service as a small q, is left out: Navajo and Old Norse names
 * use it.
 */
export const SMALL_CAPITALS: ReadonlyMap<string, string> = new Map([
	['ᴀ', 'a'],
	['ʙ', 'b'],
	['ᴄ', 'c'],
	['ᴅ', 'd'],
	['ᴇ', 'e'],
	['ꜰ', 'f'],
	['ɢ', 'g'],
	['ʜ', 'h'],
	['ɪ', 'i'],
	['ᴊ', 'j'],
	['ᴋ', 'k'],
	['ʟ', 'l'],
	['ᴍ', 'm'],
	['ɴ', 'n'],
	['ᴏ', 'o'],
	['ᴘ', 'p'],
	['ꞯ', 'q'],
	['ʀ', 'r'],
	['ꜱ', 's'],
	['ᴛ', 't'],
	['ᴜ', 'u'],
	['ᴠ', 'v'],
	['ᴡ', 'w'],
	['ʏ', 'y'],
	['ᴢ', 'z'],
]);
