import type { AnyTool } from './define-tool.ts';

export const discountTools: AnyTool[] = [];
