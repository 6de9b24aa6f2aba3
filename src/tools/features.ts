import type { AnyTool } from './define-tool.ts';

export const featureTools: AnyTool[] = [];
