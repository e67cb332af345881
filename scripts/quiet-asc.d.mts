/** `text` without the noise lines of asc (binaryen's "Last converge was suboptimal."). */
export function withoutNoise(text: string): string;
