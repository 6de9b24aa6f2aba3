import type { AnyTool } from './define-tool.ts';

export const analyticsTools: AnyTool[] = [];
