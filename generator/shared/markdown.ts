/** Spec text made safe for one Markdown table cell: one line, `|` escaped (golden tables and the package README). */
export function markdownCell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
}
