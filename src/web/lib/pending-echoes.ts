/**
 * Values handed to something that shows them back a moment later (the URL, through a
 * navigation that renders after the next key or click). Until a value comes back, the next one
 * starts from it, not from what is still shown; one that comes back is known as an echo, not
 * a change from outside; a value shown that none of them asked for (back, a link) drops them.
 */
export class PendingEchoes {
  private asked: string[] = [];

  constructor(private shown: string) {}

  /** Called with each value shown; true when it is one asked for (an echo). Idempotent. */
  see(shown: string): boolean {
    const landed = this.asked.indexOf(shown);
    if (landed >= 0) this.asked = this.asked.slice(landed + 1);
    else if (shown !== this.shown) this.asked = [];
    this.shown = shown;
    return landed >= 0;
  }

  /** The value the next change starts from: the last asked for, else the one shown. */
  latest(): string {
    return this.asked.at(-1) ?? this.shown;
  }

  ask(value: string): void {
    this.asked.push(value);
  }
}
