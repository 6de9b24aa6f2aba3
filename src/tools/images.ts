import type { AnyTool } from './define-tool.ts';

export const imageTools: AnyTool[] = [];
