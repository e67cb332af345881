// The model of a GPU's lanes that bench/gpu-schedule.mjs and bench/gpu-tail.mjs
// share: a dispatch's units (their loop steps, in order) taken by `lanes`
// lanes, each taking the next unit when its own ends (the shader's atomic
// counter); a wave of 32 lanes lasts as long as its busiest lane; up to
// `waves` waves run at full pace at once (the GPU's width) and more share it;
// the next dispatch starts when the last wave ends. A model, not a
// measurement: it leaves out the cost of a step, which is the same for all.

const WAVE = 32;

/** Lanes by the step their current unit ends at: a binary heap of [end, lane]. */
class LaneHeap {
  items = [];
  before = (a, b) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

  push(item) {
    const heap = this.items;
    heap.push(item);
    for (let i = heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!this.before(item, heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], item];
      i = parent;
    }
  }

  pop() {
    const heap = this.items;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0) {
      heap[0] = last;
      for (let i = 0; ;) {
        const [l, r] = [2 * i + 1, 2 * i + 2];
        let least = i;
        if (l < heap.length && this.before(heap[l], heap[least])) least = l;
        if (r < heap.length && this.before(heap[r], heap[least])) least = r;
        if (least === i) break;
        [heap[i], heap[least]] = [heap[least], heap[i]];
        i = least;
      }
    }
    return top;
  }
}

/**
 * The model's time for one dispatch of `steps` (its units' loop steps, in
 * the order they are taken) over `lanes` lanes and `waves` waves at full
 * pace, and the steps its waves' lanes could have made (waveSteps).
 */
export function dispatchTime(steps, lanes, waves) {
  const heap = new LaneHeap();
  const used = Math.min(lanes, steps.length);
  const laneEnd = new Float64Array(used);
  for (let lane = 0; lane < used; lane++) heap.push([0, lane]);
  for (const work of steps) {
    const [end, lane] = heap.pop();
    laneEnd[lane] = end + work;
    heap.push([laneEnd[lane], lane]);
  }
  const waveEnd = new Float64Array(Math.ceil(used / WAVE));
  for (let lane = 0; lane < used; lane++) waveEnd[Math.floor(lane / WAVE)] = Math.max(waveEnd[Math.floor(lane / WAVE)], laneEnd[lane]);
  const ends = Array.from(waveEnd).sort((a, b) => a - b);
  // While more than `waves` waves run, they share the GPU's pace.
  let time = 0;
  let from = 0;
  ends.forEach((end, k) => {
    time += (end - from) * Math.max(1, (ends.length - k) / waves);
    from = end;
  });
  return { time, waveSteps: ends.reduce((a, b) => a + b, 0) };
}

/** The share of the GPU's steps a dispatch puts to use: its units' steps over what `waves` waves could have made meanwhile. */
export function busyShare(steps, lanes, waves) {
  const work = steps.reduce((a, b) => a + b, 0);
  return work / (dispatchTime(steps, lanes, waves).time * waves * WAVE);
}

export { WAVE };
