/** Spec 2.1: lowercase letters, digits and underscores, 1 to 100 characters. */
export const ACTION_NAME_PATTERN = /^[a-z0-9_]+$/;
export const ACTION_NAME_MAX_LENGTH = 100;

export const isActionName = (value: string): boolean => value.length <= ACTION_NAME_MAX_LENGTH && ACTION_NAME_PATTERN.test(value);
