package org.chunkcdm.cli;

import org.chunkcdm.blosc.Blosc;

/**
 * Sets up, on a daemon thread while picocli builds the command line (about a tenth of a second), the classes whose
 * first use is slow and which a command meets only after that: Jackson's mapper (the formats' JSON metadata), the
 * ncstream messages (protobuf descriptors) and the native Blosc binding (loading c-blosc through JNA). The command
 * then finds them ready, or waits for the JVM to finish setting one up. Setting them up never needs a class whose
 * set-up waits on them (Jackson and protobuf set up their own classes; the binding, chunkcdm's settings, which
 * need nothing of the command's), so the two threads cannot wait on each other. A failure here is ignored: the
 * command meets it again where it is reported.
 */
final class Warmup {
  private static final String[] CLASSES = {"com.fasterxml.jackson.databind.ObjectMapper", "ucar.nc2.stream.NcStreamProto"};

  private Warmup() {}

  static void start() {
    Thread t = new Thread(Warmup::run, "chunkcdm-warmup");
    t.setDaemon(true);
    t.start();
  }

  private static void run() {
    for (String c : CLASSES) {
      try {
        Class.forName(c, true, Warmup.class.getClassLoader());
      } catch (Throwable ignored) { // met again, and reported, where the command uses the class
      }
    }
    try {
      if (Blosc.configured() != Blosc.Impl.JAVA) {
        Blosc.nativeBlosc(); // never throws; an invalid setting is refused by the command itself
      }
    } catch (RuntimeException ignored) { // an invalid chunkcdm.blosc value: Main.run refuses it
    }
  }
}
