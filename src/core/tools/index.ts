import { readMemory, searchMemory } from './memory-tools.js';
import { listNotes, readNote, remember, searchNotes } from './note-tools.js';
import { currentTime } from './time-tools.js';
import { followLinks } from './graph-tools.js';
import { cancelReminder, listReminders, setReminder } from './reminder-tools.js';
import { calendarAgenda, createEvent } from './calendar-tools.js';
import { SSH_TOOLS } from './ssh-tools.js';
import type { Tool } from './tool.js';

/** Every tool Charlie has. The loop offers them by category. */
export function builtinTools(): Tool[] {
  return [
    readMemory,
    searchMemory,
    listNotes,
    readNote,
    followLinks,
    remember,
    searchNotes,
    currentTime,
    setReminder,
    listReminders,
    cancelReminder,
    calendarAgenda,
    createEvent,
    ...SSH_TOOLS,
  ] as Tool[];
}
