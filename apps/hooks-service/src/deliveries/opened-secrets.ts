import { LruCache, type SecretBox } from '@cairn/platform';

/**
 * Hook secrets and authorization headers opened once, not once per attempt: a fan-out opens the same few sealed
 * values hundreds of times (AES-GCM and four base64 decodings each). Keyed by the sealed text, so an edited hook
 * (new sealed value) is opened afresh; bounded (least recently used values go first). A value that
 * cannot be opened is not remembered (the attempt fails and says why).
 */
export class OpenedSecrets {
  private readonly opened: LruCache<string>;

  constructor(
    private readonly box: SecretBox,
    max = 1_000,
  ) {
    this.opened = new LruCache(max);
  }

  /** The plaintext of a sealed value ('' for none); throws when it cannot be opened with the current key. */
  open(sealed: string | null | undefined): string {
    if (!sealed) return '';
    const known = this.opened.get(sealed);
    if (known !== undefined) return known;
    const plaintext = this.box.open(sealed);
    this.opened.set(sealed, plaintext);
    return plaintext;
  }
}
