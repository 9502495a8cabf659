/**
 * A first-in first-out queue with O(1) push and shift. Arrays `shift()` in O(n) once they grow
 * large, which turns a long backlog quadratic.
 */
export class FifoQueue<T> {
  private head: Node<T> | undefined;
  private tail: Node<T> | undefined;
  private count = 0;

  /** How many values wait. */
  get size(): number {
    return this.count;
  }

  /** Adds `value` at the back. */
  push(value: T): void {
    const node: Node<T> = { value, next: undefined };
    if (this.tail === undefined) this.head = node;
    else this.tail.next = node;
    this.tail = node;
    this.count += 1;
  }

  /** Removes and returns the oldest value; undefined when empty. */
  shift(): T | undefined {
    const node = this.head;
    if (node === undefined) return undefined;
    this.head = node.next;
    if (this.head === undefined) this.tail = undefined;
    this.count -= 1;
    return node.value;
  }

  /** The value at the front, left in place; undefined when empty. */
  peek(): T | undefined {
    return this.head?.value;
  }

  /** The waiting values, front first. */
  *[Symbol.iterator](): Iterator<T> {
    for (let node = this.head; node !== undefined; node = node.next) yield node.value;
  }
}

interface Node<T> {
  readonly value: T;
  next: Node<T> | undefined;
}
