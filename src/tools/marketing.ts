import type { AnyTool } from './define-tool.ts';

export const marketingTools: AnyTool[] = [];
