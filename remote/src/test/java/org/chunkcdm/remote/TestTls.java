package org.chunkcdm.remote;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** A self-signed certificate for 127.0.0.1 and localhost (made with the JDK's keytool), trusted by this JVM. */
final class TestTls {
  static final String PASSWORD = "chunkcdm-test";

  private TestTls() {}

  /** Writes a PKCS12 key store at {@code p} and makes this JVM's default SSL context trust its certificate. */
  static synchronized void keystore(Path p) throws IOException {
    String keytool = Paths.get(System.getProperty("java.home"), "bin", "keytool").toString();
    Process k = new ProcessBuilder(keytool, "-genkeypair", "-alias", "s3proxy", "-keyalg", "RSA", "-keysize", "2048",
        "-validity", "3650", "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
        "-keystore", p.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD).redirectErrorStream(true).start();
    try {
      if (!k.waitFor(60, TimeUnit.SECONDS) || k.exitValue() != 0) {
        throw new IOException("keytool failed: " + new String(k.getInputStream().readAllBytes()));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    try (InputStream in = Files.newInputStream(p)) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(in, PASSWORD.toCharArray());
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(ks);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      SSLContext.setDefault(ctx);
      HttpsURLConnection.setDefaultSSLSocketFactory(ctx.getSocketFactory());
      // the AWS SDK's HttpURLConnection client makes its own context from the standard trust store settings
      System.setProperty("javax.net.ssl.trustStore", p.toString());
      System.setProperty("javax.net.ssl.trustStorePassword", PASSWORD);
      System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot trust the test certificate: " + e, e);
    }
  }
}
