import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { readPersisted, usePersistedState } from '@/lib/persisted-state';

describe('persisted state', () => {
  it('starts from the default and keeps changes as JSON under the key', () => {
    const { result } = renderHook(() => usePersistedState('uuid-1:show_all_servers', false));
    expect(result.current[0]).toBe(false);
    act(() => result.current[1]((value) => !value));
    expect(result.current[0]).toBe(true);
    expect(localStorage.getItem('uuid-1:show_all_servers')).toBe('true');
  });

  it('reads a value kept by an earlier page', () => {
    localStorage.setItem('prefs', JSON.stringify({ columns: 3 }));
    const { result } = renderHook(() => usePersistedState('prefs', { columns: 1 }));
    expect(result.current[0]).toEqual({ columns: 3 });
  });

  it('falls back to the default when the stored value cannot be read', () => {
    localStorage.setItem('broken', '{not json');
    expect(readPersisted('broken', 'fallback')).toBe('fallback');
  });
});
