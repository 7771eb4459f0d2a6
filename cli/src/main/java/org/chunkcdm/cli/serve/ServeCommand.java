package org.chunkcdm.cli.serve;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code chunkcdm serve ROOT [--port N] [--bind ADDR]}: every dataset under ROOT over cdmremote. */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Serves every dataset under ROOT (files and dataset directories, anything netcdf-java opens) over",
        "netcdf-java's cdmremote protocol at http://ADDR:PORT/cdmremote/<path under ROOT>; a listing at /.",
        "Open with NetcdfDatasets.openDataset(\"cdmremote:http://ADDR:PORT/cdmremote/<path>\"). Stops on Ctrl-C."})
public final class ServeCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "ROOT", description = {"directory whose datasets are served (nothing outside it is);",
      "also a bucket prefix (s3://bucket/prefix, cdms3:bucket?prefix) or an http(s):// base URL, whose datasets are",
      "served by their paths (the listing at / needs S3; over plain HTTP nothing can be listed)"})
  String root;

  @Option(names = "--port", defaultValue = "8080", description = "TCP port (0 = any free port; default ${DEFAULT-VALUE})")
  int port;

  @Option(names = "--bind", defaultValue = "127.0.0.1", description = "address to listen on (default ${DEFAULT-VALUE})")
  String bind;

  @Option(names = "--cache", defaultValue = "100", description = "datasets kept open (default ${DEFAULT-VALUE})")
  int cacheSize;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (port < 0 || port > 65535) {
      throw new java.io.IOException("--port " + port + ": a TCP port is 0 to 65535 (0 = any free port)");
    }
    if (cacheSize < 1) {
      throw new java.io.IOException("--cache " + cacheSize + ": at least one dataset is kept open");
    }
    java.nio.file.Path at = org.chunkcdm.io.Locations.parse(root);
    CdmRemoteServer server = CdmRemoteServer.start(at, bind, port, cacheSize); // a failure: one line, exit 1
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      try {
        server.close();
      } catch (Exception ignored) {
        // stopping anyway
      }
      stopped.countDown();
    }, "chunkcdm-serve-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    spec.commandLine().getOut().println("chunkcdm serve: " + server.root() + " at " + server.url() + " (cdmremote: "
        + server.url() + "cdmremote/<path>); Ctrl-C stops");
    spec.commandLine().getOut().flush();
    server.join();
    stopped.await();
    return 0;
  }
}
