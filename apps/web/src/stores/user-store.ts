import { create } from 'zustand';
import { readPageUser, type User } from '@/lib/page-globals';

interface UserState {
  /** Null for guests. Starts from the user the panel injected into the page. */
  user: User | null;
  setUser: (user: User | null) => void;
  updateUser: (changes: Partial<User>) => void;
}

export const useUserStore = create<UserState>()((set) => ({
  user: readPageUser(),
  setUser: (user) => set({ user }),
  updateUser: (changes) => set((state) => ({ user: state.user ? { ...state.user, ...changes } : null })),
}));
