import { LruCache, type SecretBox } from '@cairn/platform';

// Opened once, not per attempt: a fan-out opens the same few sealed values hundreds of times. Keyed by sealed text.
export class OpenedSecrets {
  private readonly opened: LruCache<string>;

  constructor(
    private readonly box: SecretBox,
    max = 1_000,
  ) {
    this.opened = new LruCache(max);
  }

  open(sealed: string | null | undefined): string {
    if (!sealed) return '';
    const known = this.opened.get(sealed);
    if (known !== undefined) return known;
    const plaintext = this.box.open(sealed);
    this.opened.set(sealed, plaintext);
    return plaintext;
  }
}
