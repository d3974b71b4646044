/**
 * Puts text on the clipboard; false where the browser refuses (plain http away from localhost,
 * no permission), so the caller can offer another way (select the text).
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
