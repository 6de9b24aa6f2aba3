import type { AnyTool } from './define-tool.ts';

export const orderTools: AnyTool[] = [];
