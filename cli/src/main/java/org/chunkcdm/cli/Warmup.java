package org.chunkcdm.cli;

import org.chunkcdm.blosc.Blosc;

/**
 * Sets up, on a daemon thread while picocli builds the command line (about a tenth of a second), the classes whose
 * first use is slow and which a command meets only after that: Jackson's mapper (the formats' JSON metadata) and, for
 * the commands that write ncstream ({@code convert}, {@code serve}), the ncstream messages (protobuf descriptors) and
 * the native Blosc binding (loading c-blosc through JNA). Other commands leave those two alone: without the launchers'
 * options, Java 24 and later warn about protobuf's sun.misc.Unsafe calls and JNA's native access. The command then
 * finds the classes ready, or waits for the JVM to finish setting one up. Setting them up never needs a class whose
 * set-up waits on them (Jackson and protobuf set up their own classes; the binding, chunkcdm's settings, which need
 * nothing of the command's), so the two threads cannot wait on each other. A failure here is ignored: the command
 * meets it again where it is reported.
 */
final class Warmup {
  private Warmup() {}

  /** Starts the thread for the command line {@code args}. */
  static void start(String[] args) {
    String command = args.length > 0 ? args[0] : "";
    boolean ncstream = command.equals("convert") || command.equals("serve");
    Thread t = new Thread(() -> run(ncstream), "chunkcdm-warmup");
    t.setDaemon(true);
    t.start();
  }

  private static void run(boolean ncstream) {
    load("com.fasterxml.jackson.databind.ObjectMapper");
    if (!ncstream) {
      return;
    }
    load("ucar.nc2.stream.NcStreamProto");
    try {
      if (Blosc.configured() != Blosc.Impl.JAVA) {
        Blosc.nativeBlosc(); // never throws
      }
    } catch (RuntimeException ignored) { // an invalid chunkcdm.blosc value: Main.run refuses it
    }
  }

  private static void load(String name) {
    try {
      Class.forName(name, true, Warmup.class.getClassLoader());
    } catch (Throwable ignored) { // met again, and reported, where the command uses the class
    }
  }
}
