import type { AnyTool } from './define-tool.ts';

export const customerTools: AnyTool[] = [];
