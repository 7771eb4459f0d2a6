package org.chunkcdm.io;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.chunkcdm.blosc.LimitException;

/**
 * The one line a person reads when opening or reading a dataset failed: the file (and the variable or chunk the
 * message names), what is wrong and what to do, without Java class names or library wording. The command line,
 * the server and the Fiji plugin print failures through it, so the same failure reads the same everywhere.
 */
public final class UserMessages {
  private UserMessages() {}

  /** What chunkcdm's own openers open, without netcdf-java. */
  public static final String OPENER_FORMATS = "bcolz carrays and ctables, Bloscpack (.blp), Blosc2 frames and b2nd "
      + "arrays, python-blosc2 stores (.b2d, .b2z, .b2e), .ds, Zarr v2 and v3 stores";

  /** What chunkcdm opens where netcdf-java is present (the command line, a server, Fiji with netcdf-java). */
  public static final String FORMATS = OPENER_FORMATS + ", HDF5 and NetCDF-4 (also with Blosc, LZF, LZ4, Bitshuffle, Zstd and other HDF5 filters), netCDF-3 and ncstream (.ncs)";

  /** Dataset directories chunkcdm opens (a directory that is none of these is refused). */
  public static final String DIRECTORIES = "a bcolz carray or ctable, a sparse Blosc2 frame, a python-blosc2 .b2d store or a Zarr store";

  private static final Pattern CLASS_PREFIX = Pattern.compile("^(?:[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error): ");
  /** java.io's "path (reason)" of a file it could not open. */
  private static final Pattern JAVA_IO_REASON = Pattern.compile("^(.*) \\(([^()]*)\\)$");
  /** netcdf-java when no reader claims a file. */
  private static final Pattern NOT_CDM = Pattern.compile("^Cant read (.*): not a valid CDM file\\.?$");
  /** netcdf-java's RandomAccessFile reading past the end. */
  private static final Pattern RAF_EOF = Pattern.compile("^Reading (.*) at (\\d+) file length = (\\d+)$");

  /** The one-line message for {@code error}. */
  public static String describe(Throwable error) {
    Throwable t = unwrap(error);
    String m = message(t);
    String out;
    if (t instanceof NoSuchFileException) {
      out = file((FileSystemException) t, m) + ": no such file or directory";
    } else if (t instanceof AccessDeniedException) {
      out = file((FileSystemException) t, m) + ": permission denied (make it readable, or run as a user who may read it)";
    } else if (t instanceof NotDirectoryException) {
      out = file((FileSystemException) t, m) + ": not a directory";
    } else if (t instanceof LimitException) {
      out = "too large: " + m;
    } else if (FormatException.isFormatError(t)) {
      out = "format error: " + m + " (the file is damaged or incomplete: copy or write it again)";
    } else if (t instanceof OutOfMemoryError) {
      out = "out of memory (" + m + "); give Java a larger heap (-Xmx)";
    } else if (t instanceof IOException || t instanceof UncheckedIOException) {
      out = ioMessage(t, m);
    } else {
      out = "internal error: " + m + "; please report it with the command and the file";
    }
    return out.replace('\r', ' ').replace('\n', ' ');
  }

  /** Messages of other IOExceptions: java.io's and netcdf-java's wordings rewritten, others as they are. */
  private static String ioMessage(Throwable t, String m) {
    Matcher notCdm = NOT_CDM.matcher(m);
    if (notCdm.matches()) {
      return notADataset(notCdm.group(1));
    }
    Matcher eof = RAF_EOF.matcher(m);
    if (t instanceof EOFException && eof.matches()) {
      return eof.group(3).equals("0") ? eof.group(1) + ": the file is empty (0 bytes), not a dataset"
          : eof.group(1) + ": only " + eof.group(3) + " bytes long, too short for a dataset (truncated, or not a dataset "
              + "chunkcdm opens: " + FORMATS + ")";
    }
    Matcher reason = JAVA_IO_REASON.matcher(m);
    if (t instanceof FileNotFoundException && reason.matches()) {
      String path = reason.group(1);
      String why = reason.group(2).toLowerCase(Locale.ROOT);
      if (why.equals("is a directory")) {
        return isDirectory(path);
      }
      if (why.equals("permission denied")) {
        return path + ": permission denied (make it readable, or run as a user who may read it)";
      }
      return path + ": " + why;
    }
    if (t instanceof EOFException) {
      return m + " (the file ends early: truncated?)";
    }
    return m;
  }

  /** "{@code path}: no variable '{@code name}'" and the variables there are (the first 30). */
  public static String noVariable(String path, String name, java.util.List<String> variables) {
    int n = variables.size();
    String list = n == 0 ? "it has no variables"
        : "its variables: " + String.join(", ", variables.subList(0, Math.min(30, n))) + (n > 30 ? ", ... (" + n + " in all)" : "");
    return path + ": no variable '" + name + "'; " + list;
  }

  /** {@code path} is no dataset chunkcdm opens: says which formats open. */
  public static String notADataset(String path) {
    return path + ": not a dataset chunkcdm opens; it opens " + FORMATS;
  }

  /** {@code path} is a directory that no format claims. */
  public static String isDirectory(String path) {
    return path + ": a directory that is not a dataset (a dataset directory is " + DIRECTORIES
        + "); name a dataset file or dataset directory";
  }

  /** {@code t} without the wrappers that only repeat their cause (an exception made from another's toString). */
  static Throwable unwrap(Throwable error) {
    Throwable t = error;
    for (int depth = 0; depth < 16 && t.getCause() != null && t.getCause() != t; depth++) {
      if (t instanceof FormatException || t instanceof org.chunkcdm.blosc.CodecException || t instanceof LimitException) {
        break; // the kind is the point, whatever the cause says
      }
      Throwable c = t.getCause();
      String m = t.getMessage();
      boolean repeats = m == null || m.equals(c.toString()) || m.equals(c.getMessage());
      boolean wrapper = t instanceof UncheckedIOException || t instanceof java.util.concurrent.ExecutionException
          || t instanceof java.lang.reflect.InvocationTargetException || t instanceof java.util.concurrent.CompletionException;
      if (!repeats && !wrapper) {
        break;
      }
      t = c;
    }
    return t;
  }

  /** The message without leading class names ({@code java.io.IOException: ...}); never null or empty. */
  static String message(Throwable t) {
    String m = t.getMessage();
    if (m == null || m.isBlank()) {
      return t instanceof OutOfMemoryError ? "heap exhausted" : "no details";
    }
    String s = m.strip();
    for (Matcher c = CLASS_PREFIX.matcher(s); c.find(); c = CLASS_PREFIX.matcher(s)) {
      s = s.substring(c.end());
    }
    return s;
  }

  private static String file(FileSystemException e, String fallback) {
    return e.getFile() != null ? e.getFile() : fallback;
  }
}
