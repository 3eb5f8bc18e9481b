/**
 * A growable protobuf encoder over a Node `Buffer`: strings and hex ids are written by the
 * runtime's native UTF-8 / hex writers straight into the buffer, and a nested message reserves
 * one length byte, moving its body only when it turns out to need more (most OTLP messages are
 * under 128 bytes; a span under 16 KiB moves once by one byte).
 * @see https://protobuf.dev/programming-guides/encoding/
 */
export class ProtobufWriter {
  buffer: Buffer;
  pos = 0;

  constructor(capacity = 16 * 1024) {
    this.buffer = Buffer.allocUnsafe(capacity);
  }

  /** Room for `size` more bytes. */
  ensure(size: number): void {
    const needed = this.pos + size;
    if (needed <= this.buffer.length) return;
    let capacity = this.buffer.length * 2;
    while (capacity < needed) capacity *= 2;
    const grown = Buffer.allocUnsafe(capacity);
    this.buffer.copy(grown, 0, 0, this.pos);
    this.buffer = grown;
  }

  /** The field key: field number and wire type (0 varint, 1 fixed64, 2 length-delimited, 5 fixed32). */
  tag(field: number, wireType: number): void {
    this.varint(field * 8 + wireType);
  }

  /**
   * A varint of a non-negative integer up to 2^53, or of a negative one as its 64-bit two's
   * complement (10 bytes), as protobuf encodes int64.
   */
  varint(value: number): void {
    this.ensure(10);
    const buffer = this.buffer;
    if (value >= 0 && value <= 0xffffffff) {
      let v = value >>> 0;
      while (v > 0x7f) {
        buffer[this.pos++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      buffer[this.pos++] = v;
      return;
    }
    let v = BigInt.asUintN(64, BigInt(value));
    while (v > 0x7fn) {
      buffer[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    buffer[this.pos++] = Number(v);
  }

  fixed32(value: number): void {
    this.ensure(4);
    this.buffer.writeUInt32LE(value >>> 0, this.pos);
    this.pos += 4;
  }

  /** A fixed64 from its low and high 32 bits. */
  fixed64(low: number, high: number): void {
    this.ensure(8);
    this.buffer.writeUInt32LE(low >>> 0, this.pos);
    this.buffer.writeUInt32LE(high >>> 0, this.pos + 4);
    this.pos += 8;
  }

  double(value: number): void {
    this.ensure(8);
    this.buffer.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  /** A length-delimited UTF-8 string (a lone surrogate is written as U+FFFD, as `TextEncoder` does). */
  string(text: string): void {
    // Short ASCII (the gateway's attribute keys and most values) is copied here: a call into the
    // runtime's UTF-8 writer costs more than the copy.
    const count = text.length;
    if (count < 0x80) {
      this.ensure(count + 1);
      const buffer = this.buffer;
      let to = this.pos + 1;
      let index = 0;
      for (; index < count; index++) {
        const code = text.charCodeAt(index);
        if (code > 0x7f) break;
        buffer[to++] = code;
      }
      if (index === count) {
        buffer[this.pos] = count;
        this.pos = to;
        return;
      }
    }
    const length = Buffer.byteLength(text, 'utf8');
    this.varint(length);
    this.ensure(length);
    this.pos += this.buffer.write(text, this.pos, length, 'utf8');
  }

  /** Length-delimited bytes. */
  bytes(bytes: Uint8Array): void {
    this.varint(bytes.length);
    this.ensure(bytes.length);
    this.buffer.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** Length-delimited bytes given as hex (a trace or span id; a character that is not hex counts as 0). */
  hexBytes(hex: string): void {
    const length = hex.length >>> 1;
    this.varint(length);
    this.ensure(length);
    const buffer = this.buffer;
    for (let index = 0; index < length; index++)
      buffer[this.pos++] = (HEX[hex.charCodeAt(2 * index) & 0x7f]! << 4) | HEX[hex.charCodeAt(2 * index + 1) & 0x7f]!;
  }

  /** Bytes written as they are (a field encoded before). */
  raw(bytes: Uint8Array): void {
    const length = bytes.length;
    this.ensure(length);
    // A cached key field is a few dozen bytes: a loop beats `set`'s call overhead there.
    if (length < 64) for (let index = 0; index < length; index++) this.buffer[this.pos++] = bytes[index]!;
    else {
      this.buffer.set(bytes, this.pos);
      this.pos += length;
    }
  }

  /** Starts a nested message's body; {@link end} writes its length. Returns where the length goes. */
  begin(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** Writes the length of the message begun at `at`, moving its body when the length takes more than one byte. */
  end(at: number): void {
    const length = this.pos - at - 1;
    if (length < 0x80) {
      this.buffer[at] = length;
      return;
    }
    const size = varintSize(length);
    this.ensure(size - 1);
    this.buffer.copyWithin(at + size, at + 1, this.pos);
    this.pos += size - 1;
    let v = length;
    let to = at;
    while (v > 0x7f) {
      this.buffer[to++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buffer[to] = v;
  }

  /** A copy of what was written, and the writer emptied for reuse. */
  take(): Buffer {
    const bytes = Buffer.from(this.buffer.subarray(0, this.pos));
    this.pos = 0;
    return bytes;
  }
}

/** Bytes of the varint of a length (under 2^32). */
function varintSize(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;
}

/** Each ASCII character's value as a hex digit (0 for a character that is not one). */
const HEX = new Uint8Array(128);
for (let digit = 0; digit < 16; digit++) {
  HEX['0123456789abcdef'.charCodeAt(digit)] = digit;
  HEX['0123456789ABCDEF'.charCodeAt(digit)] = digit;
}
