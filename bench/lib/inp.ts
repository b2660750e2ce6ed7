/**
 * Interaction to Next Paint from Event Timing entries (PerformanceObserver type "event"). One
 * interaction (a tap, a key press) fires several events — pointerdown, pointerup, click; keydown,
 * keypress, input, keyup — that share an `interactionId`; the interaction lasts as long as its
 * longest event. Entries without an interactionId (0: mouseover, scroll, …) are not interactions.
 * INP is the longest interaction, except that with 50 or more one in 50 is forgiven (the 98th
 * percentile, as Chrome's own web-vitals counts it); the bench's few interactions never reach that.
 */
export type EventEntry = { name: string; interactionId: number; duration: number; startTime: number };
export type Interaction = { id: number; duration: number; events: string[]; startTime: number };

export function interactionsOf(entries: readonly EventEntry[]): Interaction[] {
  const byId = new Map<number, Interaction>();
  for (const entry of entries) {
    if (!entry.interactionId) continue;
    const found = byId.get(entry.interactionId);
    if (!found) {
      byId.set(entry.interactionId, {
        id: entry.interactionId,
        duration: entry.duration,
        events: [entry.name],
        startTime: entry.startTime,
      });
      continue;
    }
    found.duration = Math.max(found.duration, entry.duration);
    found.startTime = Math.min(found.startTime, entry.startTime);
    if (!found.events.includes(entry.name)) found.events.push(entry.name);
  }
  return [...byId.values()].sort((a, b) => a.startTime - b.startTime);
}

/** INP in ms, or null when there was no interaction at all. */
export function inpOf(interactions: readonly Interaction[]): number | null {
  if (interactions.length === 0) return null;
  const longest = [...interactions].sort((a, b) => b.duration - a.duration);
  const skip = Math.min(longest.length - 1, Math.floor(interactions.length / 50));
  return longest[skip]!.duration;
}
